import Protocol
import RoomEngine
import Testing

/// switchRole: only anchors publish, an anchor turning audience stops publishing, becoming an
/// anchor needs the publish grant, and autoPublish brings declared streams back.
@Suite struct RoleSwitchScenarioTests {
    @Test func audienceCannotPublish() {
        var s = Scenario()
        let host = s.enter("host")
        let fan = s.enter("fan", role: .audience)
        let mark = s.mark
        let outcome = s.publish(fan)
        #expect(outcome.error?.code == .callerIsAudience)
        #expect(outcome.error?.code.rawValue == -3330)
        #expect(outcome.actions.isEmpty)
        #expect(s.events(for: host, since: mark).isEmpty)
    }

    @Test func anchorSwitchingToAudienceUnpublishes() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        s.publish(guest, .screen)
        let mark = s.mark
        #expect(s.switchRole(guest, to: .audience).value != nil)
        #expect(
            s.events(for: host, since: mark) == [
                .unpublished("guest", .unpublish, .main),
                .unpublished("guest", .unpublish, .screen),
            ])
        #expect(s.events(for: guest, since: mark) == [.role(.audience)])
        #expect(s.removedSources(since: mark).count == 4)
        #expect(s.publish(guest).error?.code == .callerIsAudience)
    }

    @Test func audienceWithoutPublishGrantCannotBecomeAnchor() {
        var s = Scenario()
        let host = s.enter("host")
        let fan = s.enter("fan", role: .audience, grants: s.grants(publish: false))
        let mark = s.mark
        let outcome = s.switchRole(fan, to: .anchor)
        #expect(outcome.error?.code == .noPublishPermission)
        #expect(outcome.error?.code.rawValue == -1002)
        #expect(s.events(for: fan, since: mark) == [.role(.audience, errorCode: -1002)])
        #expect(s.events(for: host, since: mark).isEmpty)
        // Still audience.
        #expect(s.publish(fan).error?.code == .noPublishPermission)
        #expect(s.switchRole(fan, to: .audience).value != nil)
    }

    @Test func autoPublishRepublishesWhenAnchorAgain() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        s.switchRole(guest, to: .audience)
        let mark = s.mark
        #expect(s.switchRole(guest, to: .anchor).value != nil)
        #expect(s.events(for: host, since: mark) == [.published("guest")])
        #expect(s.events(for: guest, since: mark) == [.role(.anchor)])
        #expect(s.addedSources(since: mark).map(\.ssrc) == guest.tracks().map(\.ssrc))
    }

    @Test func autoPublishOffKeepsTheStreamsDown() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest", config: RoomConfig(autoPublish: false))
        s.publish(guest)
        s.switchRole(guest, to: .audience)
        let mark = s.mark
        s.switchRole(guest, to: .anchor)
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.media(since: mark).isEmpty)
    }

    @Test func autoPublishWaitsUntilTheAnchorIsVisible() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        s.switchRole(guest, to: .audience)
        s.setVisible(guest, false)
        var mark = s.mark
        s.switchRole(guest, to: .anchor)
        #expect(s.events(for: host, since: mark).isEmpty)
        mark = s.mark
        s.setVisible(guest, true)
        #expect(s.events(for: host, since: mark) == [.joined("guest"), .published("guest")])
    }

    @Test func explicitlyUnpublishedStreamsAreNotRepublished() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        s.publish(guest, .screen)
        s.unpublish(guest, .screen)
        s.switchRole(guest, to: .audience)
        let mark = s.mark
        s.switchRole(guest, to: .anchor)
        #expect(s.events(for: host, since: mark) == [.published("guest", .main)])
    }

    @Test func subscribersKeepTheirSinksAcrossAnAudienceInterlude() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let before = s.subscribe(viewer, to: "guest").value?.tracks ?? []
        s.switchRole(guest, to: .audience)
        let mark = s.mark
        s.switchRole(guest, to: .anchor)
        let rebound = s.events(for: viewer, since: mark).compactMap(\.subscribed)
        #expect(rebound.count == 1)
        #expect(rebound.first?.tracks == before)
        #expect(s.addedSinks(since: mark).isEmpty)
    }
}
