import Protocol
import RoomEngine
import Testing

/// A token whose publish privilege ends before the token itself (grants.publishExpiresAt): the
/// anchor is warned, its streams end with PrivilegeTokenExpired, it stays in the room, and
/// updateToken restores publishing.
@Suite struct PublishPrivilegeScenarioTests {
    func grants(_ s: Scenario, publishFor publishSeconds: Double, validFor seconds: Double = 3600) -> TokenGrants {
        var grants = s.grants(validFor: seconds)
        grants.publishExpiresAt = s.now.adding(milliseconds: Int64(publishSeconds * 1000))
        return grants
    }

    @Test func publishPrivilegeWarnsThenUnpublishesAndTheUserStays() throws {
        var s = Scenario()
        let viewer = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true)
        let anchor = s.enter("anchor", grants: grants(s, publishFor: 60))
        s.publish(anchor)
        let sources = s.addedSources()
        let mark = s.mark

        var warnedAt: [Int] = []
        for second in 1...59 {
            s.advance(seconds: 1)
            s.mediaArrives(on: sources)
            if !s.tick().isEmpty { warnedAt.append(second) }
        }
        #expect(warnedAt == [30])
        #expect(
            s.events(for: anchor, since: mark) == [
                .tokenWillExpire(
                    TokenWillExpireEvent(roomId: Scenario.room, expiresAt: Scenario.at(seconds: 60).seconds, remainingSeconds: 30, privilege: "publish"))
            ])

        let expiry = s.mark
        s.advance(seconds: 1)
        s.mediaArrives(on: sources)
        s.tick()
        #expect(s.events(for: viewer, since: expiry).contains(.unpublished("anchor", .privilegeTokenExpired)))
        #expect(s.events(for: anchor, since: expiry).isEmpty, "no exit: only the publish privilege ended")
        #expect(Set(s.removedSources(since: expiry)) == Set(sources.map(\.id)))
        #expect(s.engine.isJoined(session: anchor.session, roomId: Scenario.room))
        let refused = s.publish(anchor)
        #expect(refused.error?.code == .noPublishPermission)
        #expect(refused.error?.message.contains("publish privilege has expired") == true)

        // A fresh token brings publishing back.
        #expect(s.updateToken(anchor, grants: s.grants()).value != nil)
        #expect(s.publish(anchor).error == nil)
    }

    @Test func aPublishExpiryAtTheTokenExpiryWarnsOnce() {
        var s = Scenario()
        let anchor = s.enter("anchor", grants: grants(s, publishFor: 100, validFor: 100))
        s.publish(anchor)
        let sources = s.addedSources()
        let mark = s.mark
        for _ in 1...80 {
            s.advance(seconds: 1)
            s.mediaArrives(on: sources)
            s.tick()
        }
        let warnings = s.events(for: anchor, since: mark).filter { if case .tokenWillExpire = $0 { true } else { false } }
        #expect(warnings == [.tokenWillExpire(TokenWillExpireEvent(roomId: Scenario.room, expiresAt: Scenario.at(seconds: 100).seconds, remainingSeconds: 30))])
    }
}
