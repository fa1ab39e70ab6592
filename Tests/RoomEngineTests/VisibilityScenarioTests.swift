import Protocol
import RoomEngine
import Testing

/// setUserVisibility: what others see when a user turns invisible or visible, the answer the user
/// itself gets, and the room's visible-user limit.
@Suite struct VisibilityScenarioTests {
    @Test func turningInvisibleWhilePublishingUnpublishesThenLeaves() {
        var s = Scenario()
        let host = s.enter("host")
        let watcher = s.enter("watcher", role: .audience, visible: false)
        let guest = s.enter("guest")
        s.publish(guest)
        let mark = s.mark

        #expect(s.setVisible(guest, false).value != nil)

        let expected: [ServerEvent] = [.unpublished("guest", .unpublish), .left("guest", .switchToInvisible)]
        #expect(s.events(for: host, since: mark) == expected)
        #expect(s.events(for: watcher, since: mark) == expected)
        #expect(s.events(for: guest, since: mark) == [.visibility(false)])
        #expect(s.removedSources(since: mark).count == 2)
    }

    @Test func turningVisibleAgainJoins() {
        var s = Scenario()
        let host = s.enter("host")
        let fan = s.enter("fan", role: .audience, visible: false)
        var mark = s.mark

        #expect(s.setVisible(fan, true).value != nil)
        #expect(s.events(for: host, since: mark) == [.joined("fan", .audience)])
        #expect(s.events(for: fan, since: mark) == [.visibility(true)])

        mark = s.mark
        #expect(s.setVisible(fan, false).value != nil)
        #expect(s.events(for: host, since: mark) == [.left("fan", .switchToInvisible)])
        #expect(s.events(for: fan, since: mark) == [.visibility(false)])
    }

    @Test func settingTheCurrentVisibilityOnlyAnswers() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        let mark = s.mark
        #expect(s.setVisible(guest, true).value != nil)
        #expect(s.events(for: guest, since: mark) == [.visibility(true)])
        #expect(s.events(for: host, since: mark).isEmpty)
    }

    @Test func visibleUserLimitAnswersTooManyVisibleUsers() {
        var limits = RoomLimits()
        limits.maximumVisibleUsersPerRoom = 2
        var s = Scenario(limits: limits)
        let a = s.enter("a")
        let b = s.enter("b")
        let c = s.enter("c", role: .audience, visible: false)
        var mark = s.mark

        let refused = s.setVisible(c, true)
        #expect(refused.error?.code == .visibilityRefused)
        #expect(s.events(for: c, since: mark) == [.visibility(false, errorCode: 2)])
        #expect(s.events(for: a, since: mark).isEmpty)
        #expect(s.events(for: b, since: mark).isEmpty)

        // A visible join over the limit is refused too, while an invisible one is not.
        let d = s.connect("d")
        #expect(s.join(d, visible: true).error?.code == .visibilityRefused)
        #expect(!s.engine.isJoined(session: d.session, roomId: Scenario.room))
        #expect(s.join(d, visible: false).value?.visible == false)

        // Once a visible user turns invisible there is room again.
        s.setVisible(b, false)
        mark = s.mark
        #expect(s.setVisible(c, true).value != nil)
        #expect(s.events(for: c, since: mark) == [.visibility(true)])
        #expect(s.events(for: a, since: mark) == [.joined("c", .audience)])
    }

    @Test func invisibleUserCannotPublishAndLeavesSilently() {
        var s = Scenario()
        let host = s.enter("host")
        let ghost = s.enter("ghost", visible: false)
        let mark = s.mark
        #expect(s.publish(ghost).error?.code == .invisibleCannotPublish)
        s.leave(ghost)
        #expect(s.events(for: host, since: mark).isEmpty)
        #expect(s.media(since: mark).isEmpty)
    }

    @Test func becomingVisibleAgainRepublishesDeclaredStreams() {
        var s = Scenario()
        let host = s.enter("host")
        let guest = s.enter("guest")
        s.publish(guest)
        s.setVisible(guest, false)
        let mark = s.mark
        s.setVisible(guest, true)
        #expect(s.events(for: host, since: mark) == [.joined("guest"), .published("guest")])
        #expect(s.events(for: guest, since: mark) == [.visibility(true)])
        #expect(s.addedSources(since: mark).map(\.ssrc) == guest.tracks().map(\.ssrc))
    }

    @Test func subscriptionsToAUserTurningInvisibleEnd() {
        var s = Scenario()
        let guest = s.enter("guest")
        s.publish(guest)
        let viewer = s.enter("viewer", role: .audience, visible: false)
        let sinks = s.subscribe(viewer, to: "guest").value?.tracks ?? []
        #expect(sinks.count == 2)
        let created = s.addedSinks()
        let mark = s.mark
        s.setVisible(guest, false)
        #expect(Set(s.removedSinks(since: mark)) == Set(created.map(\.id)))
        // Visible again: the explicit subscription does not come back by itself.
        let back = s.mark
        s.setVisible(guest, true)
        #expect(s.addedSinks(since: back).isEmpty)
        #expect(s.events(for: viewer, since: back) == [.joined("guest"), .published("guest")])
    }
}
