import Protocol
import RoomEngine
import Testing

/// Duplicate login: a later join with the same userId from another session replaces the earlier
/// one, which is kicked with -1004, while the room sees it drop and join again.
@Suite struct DuplicateLoginScenarioTests {
    @Test func secondSessionReplacesTheFirst() {
        var s = Scenario()
        let host = s.enter("host")
        let watcher = s.enter("watcher", role: .audience, visible: false)
        let first = s.enter("guest")
        s.publish(first)
        let second = s.connect("guest")
        let mark = s.mark

        let outcome = s.join(second)

        #expect(outcome.value?.userId == "guest")
        #expect(outcome.value?.users.map(\.userId) == ["host"])
        #expect(s.events(for: first, since: mark) == [.exit(.kicked, code: .duplicateLogin)])
        #expect(s.exits(for: first, since: mark).first?.code == -1004)
        let expected: [ServerEvent] = [
            .unpublished("guest", .clientDisconnected),
            .left("guest", .dropped),
            .joined("guest"),
        ]
        #expect(s.events(for: host, since: mark) == expected)
        #expect(s.events(for: watcher, since: mark) == expected)
        #expect(s.events(for: second, since: mark) == [.roomState("guest", joinType: 1), .joined("host")])
        #expect(!s.engine.isJoined(session: first.session, roomId: Scenario.room))
        #expect(s.engine.isJoined(session: second.session, roomId: Scenario.room))
        #expect(s.engine.userId(of: second.session, roomId: Scenario.room) == "guest")
        #expect(s.engine.memberCount(roomId: Scenario.room) == 3)
        #expect(s.removedSources(since: mark).count == 2)
    }

    @Test func replacedSessionCanNoLongerActInTheRoom() {
        var s = Scenario()
        _ = s.enter("host")
        let first = s.enter("guest")
        let second = s.connect("guest")
        s.join(second)
        #expect(s.publish(first).error?.code == .notInRoom)
        #expect(s.leave(first).error?.code == .notInRoom)
        #expect(s.publish(second).value != nil)
    }

    @Test func invisibleFirstSessionIsReplacedSilently() {
        var s = Scenario()
        let host = s.enter("host")
        let first = s.enter("fan", role: .audience, visible: false)
        let second = s.connect("fan")
        let mark = s.mark
        s.join(second, role: .audience, visible: false)
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.events(for: first, since: mark) == [.exit(.kicked, code: .duplicateLogin)])
        #expect(s.events(for: second, since: mark) == [.roomState("fan", joinType: 1), .joined("host")])
    }

    @Test func firstSessionsSubscriptionsEnd() {
        var s = Scenario()
        let host = s.enter("host")
        s.publish(host)
        let first = s.enter("viewer", role: .audience, visible: false, autoSubscribe: true)
        let firstSinks = s.addedSinks()
        #expect(firstSinks.count == 2)
        let second = s.connect("viewer")
        let mark = s.mark
        s.join(second, role: .audience, visible: false, config: RoomConfig(subscribeTransportId: second.transport))
        #expect(Set(s.removedSinks(since: mark)) == Set(firstSinks.map(\.id)))
        let newSinks = s.addedSinks(since: mark)
        #expect(newSinks.map(\.transportId) == [second.transport, second.transport])
        #expect(s.events(for: first, since: mark).compactMap(\.subscribed).isEmpty)
    }

    @Test func replacingAVisibleUserAtTheVisibleLimitIsAllowed() {
        var limits = RoomLimits()
        limits.maximumVisibleUsersPerRoom = 2
        var s = Scenario(limits: limits)
        let host = s.enter("host")
        _ = s.enter("guest")
        let second = s.connect("guest")
        let mark = s.mark
        #expect(s.join(second).value?.visible == true)
        #expect(s.events(for: host, since: mark) == [.left("guest", .dropped), .joined("guest")])
    }

    @Test func refusedReplacementLeavesTheFirstSessionInPlace() {
        var limits = RoomLimits()
        limits.maximumVisibleUsersPerRoom = 1
        var s = Scenario(limits: limits)
        let host = s.enter("host")
        let first = s.enter("fan", role: .audience, visible: false)
        let second = s.connect("fan")
        let mark = s.mark
        let outcome = s.join(second, role: .audience, visible: true)
        #expect(outcome.error?.code == .visibilityRefused)
        #expect(outcome.actions.isEmpty)
        #expect(s.engine.isJoined(session: first.session, roomId: Scenario.room))
        #expect(!s.engine.isJoined(session: second.session, roomId: Scenario.room))
        #expect(s.events(for: first, since: mark).isEmpty)
        #expect(s.events(for: host, since: mark).isEmpty)
    }
}
