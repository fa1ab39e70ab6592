import Protocol
import RoomEngine
import Testing

/// The domain events beside the engine's actions: what the operator and the room server hear
/// (webhooks, info logs, metrics), each once, in the order things happened, with the reason.
@Suite struct DomainEventScenarioTests {
    /// A compact form of an event, so that expectations read like a log.
    static func line(_ event: DomainEvent) -> String {
        switch event {
        case .roomCreated(let room): "room.created \(room)"
        case .roomDismissed(let room, let reason): "room.dismissed \(room) \(reason ?? "-")"
        case .roomEnded(let room): "room.ended \(room)"
        case .userJoined(let room, let user, _, let role, let visible, let replaced):
            "user.joined \(room) \(user) \(role.rawValue)\(visible ? "" : " invisible")\(replaced == nil ? "" : " replacing")"
        case .userLeft(let room, let user, _, let reason): "user.left \(room) \(user) \(reason.rawValue)"
        case .userRoleChanged(let room, let user, let role, let previous): "user.role \(room) \(user) \(previous.rawValue)->\(role.rawValue)"
        case .streamPublished(let change): "stream.published \(change.roomId) \(change.userId) \(change.streamIndex.rawValue) \(change.mediaType)"
        case .streamUnpublished(let change):
            "stream.unpublished \(change.roomId) \(change.userId) \(change.streamIndex.rawValue) "
                + "\(change.reason.map { "\($0.rawValue)" } ?? "-")\(change.departure.map { " " + $0.rawValue } ?? "")"
        case .forwardStateChanged(let change):
            "forward \(change.sourceRoomId) \(change.userId) -> '\(change.targetRoomId)' \(change.state.rawValue) "
                + "\(change.error)\(change.departure.map { " " + $0.rawValue } ?? "")"
        case .linkConnected(let link): "link.connected \(link.callerRoomId)/\(link.callerUserId) \(link.peerRoomId)/\(link.peerUserId)"
        case .linkEnded(let link, let reason): "link.ended \(link.callerRoomId)/\(link.callerUserId) \(link.peerRoomId)/\(link.peerUserId) \(reason)"
        case .invitationEnded(let outcome):
            "invitation \(outcome.inviteId) \(outcome.callerUserId)->\(outcome.calleeUserId) \(outcome.state.rawValue) \(outcome.reason ?? "-")"
        case .firstKeyframe(let watch, let elapsed): "first-keyframe \(watch.sourceRoomId) \(watch.userId) -> \(watch.targetRoomId) \(elapsed)"
        }
    }

    static func lines(_ s: Scenario, since mark: Int = 0) -> [String] { s.domainEvents(since: mark).map(line) }

    @Test func joinsAndLeavesCarryTheirReasons() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r1")
        let c = s.enter("C", role: .audience, visible: false, room: "r1")
        #expect(Self.lines(s) == ["room.created r1", "user.joined r1 A anchor", "user.joined r1 B anchor", "user.joined r1 C audience invisible"])

        var mark = s.mark
        s.switchRole(b, to: .audience, room: "r1")
        s.switchRole(b, to: .audience, room: "r1")
        #expect(Self.lines(s, since: mark) == ["user.role r1 B anchor->audience"])

        mark = s.mark
        s.leave(b, room: "r1")
        s.kick("C", room: "r1")
        #expect(Self.lines(s, since: mark) == ["user.left r1 B left", "user.left r1 C kicked"])

        // A duplicate login: the old session leaves, then the new one joins.
        mark = s.mark
        let again = s.connect("A")
        s.join(again, room: "r1")
        #expect(Self.lines(s, since: mark) == ["user.left r1 A duplicateLogin", "user.joined r1 A anchor replacing"])
        _ = a

        mark = s.mark
        s.disconnect(again, cause: .serverShutdown)
        #expect(Self.lines(s, since: mark) == ["user.left r1 A serverShutdown", "room.ended r1"])
    }

    @Test func tokenExpiryAndDismissAreTheirOwnReasons() {
        var s = Scenario()
        _ = s.enter("A", grants: s.grants(validFor: 10), room: "r1")
        _ = s.enter("B", room: "r1")
        _ = s.enter("C", room: "r2")
        let mark = s.mark
        s.advance(seconds: 11)
        s.tick()
        s.dismiss(room: "r2", reason: "show over")
        #expect(
            Self.lines(s, since: mark) == [
                "user.left r1 A tokenExpired",
                "room.dismissed r2 show over", "user.left r2 C roomDismissed", "room.ended r2",
            ])
    }

    @Test func streamsEndWithTheReasonAndTheDeparture() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        _ = s.enter("B", room: "r1")
        var mark = s.mark
        s.publish(a, room: "r1")
        s.unpublish(a, room: "r1")
        s.publish(a, room: "r1")
        #expect(
            Self.lines(s, since: mark) == [
                "stream.published r1 A main 3", "stream.unpublished r1 A main 0", "stream.published r1 A main 3",
            ])
        mark = s.mark
        s.disconnect(a)
        #expect(Self.lines(s, since: mark) == ["stream.unpublished r1 A main 3 disconnected", "user.left r1 A disconnected"])
    }

    @Test func forwardTargetsReportEveryOutcomeAndBadIdsCreateNoRoom() {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        s.publish(a, room: "r1")
        let tooLong = String(repeating: "x", count: 300)
        var mark = s.mark
        let outcome = s.startForward(a, room: "r1", [.ok(""), .ok("bad room/../x"), .ok(tooLong), .ok("r2"), .bad("r3")])
        #expect(outcome.value?.infos.map(\.error) == [1201, 1201, 1201, 0, 1202])
        #expect(
            Self.lines(s, since: mark) == [
                "forward r1 A -> '' 2 1201", "forward r1 A -> 'bad room/../x' 2 1201", "forward r1 A -> '\(tooLong)' 2 1201",
                "room.created r2", "forward r1 A -> 'r2' 1 0", "forward r1 A -> 'r3' 2 1202",
            ])
        #expect(s.engine.roomIds == ["r1", "r2"])

        // The same bad targets through an update while the forward runs.
        mark = s.mark
        s.updateForward(a, room: "r1", [.ok("r2"), .ok(""), .ok("r4")])
        #expect(Self.lines(s, since: mark) == ["forward r1 A -> '' 2 1201", "room.created r4", "forward r1 A -> 'r4' 1 0"])
        #expect(s.engine.roomIds == ["r1", "r2", "r4"])

        mark = s.mark
        s.updateForward(a, room: "r1", [.ok("r4")])
        #expect(Self.lines(s, since: mark) == ["room.ended r2", "forward r1 A -> 'r2' 0 0"])

        // The forwarding user's connection drops: its stream ends, the target stops (and says
        // why), the target room it leaves empty ends, then the user leaves its own room.
        mark = s.mark
        s.disconnect(a)
        #expect(
            Self.lines(s, since: mark) == [
                "stream.unpublished r1 A main 3 disconnected", "room.ended r4", "forward r1 A -> 'r4' 0 0 disconnected",
                "user.left r1 A disconnected", "room.ended r1",
            ])
    }

    @Test func linksAndInvitationsReportHowTheyEnded() throws {
        var s = Scenario()
        let a = s.enter("A", room: "r1")
        let b = s.enter("B", room: "r2")
        var mark = s.mark
        let id = try #require(s.invite(a, to: "r2", "B").value?.inviteId)
        s.accept(b, id)
        s.connectOtherRoom(a, to: "r2", "B")
        #expect(Self.lines(s, since: mark) == ["invitation \(id) A->B 3 -", "link.connected r1/A r2/B"])

        mark = s.mark
        s.disconnectOtherRoom(b)
        #expect(Self.lines(s, since: mark) == ["link.ended r1/A r2/B disconnect"])

        let pending = try #require(s.invite(a, to: "r2", "B").value?.inviteId)
        s.connectOtherRoom(a, to: "r2", "B")
        mark = s.mark
        // Busy: refused at once, and told.
        let busy = try #require(s.invite(b, to: "r1", "A").value?.inviteId)
        #expect(Self.lines(s, since: mark) == ["invitation \(busy) B->A 4 busy"])
        mark = s.mark
        s.disconnect(b)
        #expect(
            Self.lines(s, since: mark) == [
                "invitation \(pending) A->B 6 peerLeft", "link.ended r1/A r2/B disconnected", "user.left r2 B disconnected", "room.ended r2",
            ])
    }
}
