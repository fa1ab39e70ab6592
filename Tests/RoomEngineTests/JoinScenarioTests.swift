import Protocol
import RoomEngine
import Testing

/// Joining a room: what the joiner and the users already there hear, what the join result lists,
/// joining twice, and the hidden grant.
@Suite struct JoinScenarioTests {
    @Test func joinerReceivesRoomStateZeroWithFirstJoinType() {
        var s = Scenario()
        let alice = s.connect("alice")
        let outcome = s.join(alice)
        #expect(
            outcome.value
                == JoinRoomResult(
                    roomId: Scenario.room, userId: "alice", role: .anchor, visible: true, users: [],
                    tokenExpiresAt: Scenario.start.seconds + 3600))
        #expect(s.events(for: alice) == [.roomState("alice", joinType: 0)])
        #expect(s.engine.isJoined(session: alice.session, roomId: Scenario.room))
        #expect(s.engine.memberCount(roomId: Scenario.room) == 1)
    }

    @Test(arguments: [true, false])
    func othersSeeAJoinerOnlyWhenItIsVisible(visible: Bool) {
        var s = Scenario()
        let anchor = s.enter("anchor")
        let watcher = s.enter("watcher", role: .audience, visible: false)
        let mark = s.mark
        let joiner = s.enter("joiner", role: .audience, visible: visible)
        let expected: [ServerEvent] = visible ? [.joined("joiner", .audience)] : []
        #expect(s.events(for: anchor, since: mark) == expected)
        #expect(s.events(for: watcher, since: mark) == expected)
        #expect(s.events(for: joiner, since: mark).first == .roomState("joiner"))
    }

    @Test func joinerLearnsExistingVisibleUsersAndTheirStreams() {
        var s = Scenario()
        let host = s.enter("host")
        s.publish(host)
        s.publish(host, .screen, tracks: host.tracks(.screen, mediaType: MediaType.video))
        let guest = s.enter("guest")
        s.publish(guest, tracks: guest.tracks(mediaType: MediaType.audio))
        _ = s.enter("lurker", role: .audience, visible: false)
        _ = s.enter("listener", role: .audience)

        let late = s.connect("late")
        let mark = s.mark
        let outcome = s.join(late, role: .audience, visible: false)

        #expect(
            outcome.value?.users == [
                RemoteUserInfo(
                    userId: "host", role: .anchor,
                    streams: [
                        RemoteStreamInfo(streamIndex: .main, mediaType: MediaType.audioAndVideo),
                        RemoteStreamInfo(streamIndex: .screen, mediaType: MediaType.video),
                    ]),
                RemoteUserInfo(userId: "guest", role: .anchor, streams: [RemoteStreamInfo(streamIndex: .main, mediaType: MediaType.audio)]),
                RemoteUserInfo(userId: "listener", role: .audience, streams: []),
            ])
        #expect(outcome.value?.visible == false)
        #expect(
            s.events(for: late, since: mark) == [
                .roomState("late"),
                .joined("host"),
                .published("host", .main),
                .published("host", .screen, mediaType: MediaType.video),
                .joined("guest"),
                .published("guest", mediaType: MediaType.audio),
                .joined("listener", .audience),
            ])
        // Without a subscribe transport nothing is subscribed and the media plane is untouched.
        #expect(s.media(since: mark).isEmpty)
    }

    @Test func joiningTheSameRoomTwiceFromOneSessionFails() {
        var s = Scenario()
        let alice = s.enter("alice")
        let other = s.enter("bob")
        let mark = s.mark
        let again = s.join(alice)
        #expect(again.error?.code == .alreadyInRoom)
        #expect((4001...4999).contains(again.error?.code.rawValue ?? 0))
        #expect(again.actions.isEmpty)
        // Even under another userId the session cannot join the room again.
        let renamed = Client(userId: "alice-2", session: alice.session, transport: alice.transport, ssrcBase: alice.ssrcBase)
        #expect(s.join(renamed).error?.code == .alreadyInRoom)
        #expect(s.events(for: other, since: mark).isEmpty)
        #expect(s.engine.memberCount(roomId: Scenario.room) == 2)
    }

    @Test func oneSessionMayJoinSeveralRooms() {
        var s = Scenario()
        let alice = s.connect("alice")
        #expect(s.join(alice, room: "a").value != nil)
        #expect(s.join(alice, room: "b").value != nil)
        #expect(s.engine.rooms(of: alice.session) == ["a", "b"])
        #expect(s.events(for: alice) == [.roomState("alice", room: "a"), .roomState("alice", room: "b")])
    }

    @Test func hiddenGrantForcesInvisible() {
        var s = Scenario()
        let host = s.enter("host")
        let spy = s.connect("spy")
        let mark = s.mark
        let outcome = s.join(spy, role: .anchor, visible: true, grants: s.grants(hidden: true))
        #expect(outcome.value?.visible == false)
        #expect(s.events(for: host, since: mark).isEmpty)

        // A later joiner does not learn about the hidden user either.
        let late = s.connect("late")
        #expect(s.join(late).value?.users.map(\.userId) == ["host"])

        // And the hidden user cannot turn visible: onUserVisibilityChanged reports Unknown (1).
        let flip = s.mark
        let refused = s.setVisible(spy, true)
        #expect(refused.error?.code == .visibilityRefused)
        #expect(s.events(for: spy, since: flip) == [.visibility(false, errorCode: 1)])
        #expect(s.events(for: host, since: flip).isEmpty)
        #expect(s.publish(spy).error?.code == .invisibleCannotPublish)
    }

    @Test func subscribeTransportOfAnotherSessionIsRefused() {
        var s = Scenario()
        let alice = s.connect("alice")
        let bob = s.connect("bob")
        let outcome = s.join(alice, config: RoomConfig(subscribeTransportId: bob.transport))
        #expect(outcome.error?.code == .transportNotFound)
        #expect(!s.engine.isJoined(session: alice.session, roomId: Scenario.room))
        #expect(s.engine.roomIds.isEmpty)
    }

    @Test func leavingTellsOthersQuitAndEmptiesTheRoom() {
        var s = Scenario()
        let alice = s.enter("alice")
        let bob = s.enter("bob")
        let mark = s.mark
        #expect(s.leave(bob).value != nil)
        #expect(s.events(for: alice, since: mark) == [.left("bob", .quit)])
        #expect(s.events(for: bob, since: mark) == [.exit(.left, code: ErrorCode(0))])
        s.leave(alice)
        #expect(s.engine.roomIds.isEmpty)
        #expect(s.engine.rooms(of: alice.session).isEmpty)
    }
}
