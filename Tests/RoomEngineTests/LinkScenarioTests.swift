import Protocol
import RoomEngine
import Testing

/// Two-way PK links (TRTC connectOtherRoom): what both rooms see, the error codes, how links
/// end, and updateOtherRoomForwardMode.
@Suite struct LinkScenarioTests {
    /// Anchor A publishing in r1 with an auto-subscribing viewer; anchor B publishing in r2 with one.
    struct TwoRooms {
        var s: Scenario
        let a: Client, v1: Client, b: Client, v2: Client
        let aSources: [SourceTrack], bSources: [SourceTrack]

        init(limits: RoomLimits = RoomLimits(), bGrants: TokenGrants? = nil) {
            s = Scenario(limits: limits)
            a = s.enter("A", room: "r1")
            s.publish(a, room: "r1")
            aSources = s.addedSources()
            v1 = s.enter("v1", role: .audience, visible: false, autoSubscribe: true, room: "r1")
            b = s.enter("B", grants: bGrants, room: "r2")
            let mark = s.mark
            s.publish(b, room: "r2")
            bSources = s.addedSources(since: mark)
            v2 = s.enter("v2", role: .audience, visible: false, autoSubscribe: true, room: "r2")
        }
    }

    @Test func connectShowsEachAnchorInTheOtherRoom() throws {
        var t = TwoRooms()
        let mark = t.s.mark

        let event = try #require(t.s.connectOtherRoom(t.a, to: "r2", "B").value)

        #expect(event == ConnectOtherRoomEvent(roomId: "r1", peerRoomId: "r2", peerUserId: "B", errorCode: 0, message: "linked"))
        #expect(
            t.s.events(for: t.a, since: mark) == [
                .mirrorJoined("B", from: "r2", room: "r1"), .published("B", room: "r1"), .connected("r1", peerRoom: "r2", "B"),
            ])
        #expect(
            t.s.events(for: t.b, since: mark) == [
                .mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2"), .connected("r2", peerRoom: "r1", "A"),
            ])
        for (viewer, peer, room, from) in [(t.v1, "B", "r1", "r2"), (t.v2, "A", "r2", "r1")] {
            let events = t.s.events(for: viewer, since: mark)
            #expect(Array(events.prefix(2)) == [.mirrorJoined(peer, from: from, room: room), .published(peer, room: room)])
            #expect(events.count == 3 && events.last?.subscribed?.userId == peer)
        }
        // Viewers are fed straight from the peer's sources; binding a video sink is what asks
        // its anchor for a keyframe (in the media plane), so the engine asks nothing itself.
        let binds = t.s.binds(since: mark)
        #expect(binds.map(\.source) == t.aSources.map(\.id) + t.bSources.map(\.id))
        #expect(t.s.engine.forwardingTotals == (0, 1))
        #expect(t.s.engine.forwardedFrom(roomId: "r1", userId: "B") == "r2")
        #expect(t.s.engine.forwardedFrom(roomId: "r2", userId: "A") == "r1")
    }

    @Test func connectErrors() {
        var t = TwoRooms()
        let fan = t.s.enter("fan", role: .audience, room: "r1")
        _ = t.s.enter("ghost", visible: false, room: "r2")
        _ = t.s.enter("listener", role: .audience, room: "r2")
        let cases: [(Client, String, String, ErrorCode)] = [
            (fan, "r2", "B", .callerIsAudience),
            (t.a, "r9", "B", .targetRoomNotFound),
            (t.a, "r2", "nobody", .targetUserNotFound),
            (t.a, "r2", "ghost", .targetUserNotFound),
            (t.a, "r2", "listener", .targetUserNotFound),
            (t.a, "r2", "v2", .targetUserNotFound),
            (t.a, "r1", "v1", .linkInvalidParameter),
            (t.a, "", "B", .linkInvalidParameter),
        ]
        for (caller, room, user, code) in cases {
            let mark = t.s.mark
            let outcome = t.s.connectOtherRoom(caller, to: room, user)
            #expect(outcome.error?.code == code, "\(caller.userId) -> \(user)@\(room)")
            #expect(t.s.events(for: caller, since: mark) == [.connected("r1", peerRoom: room, user, errorCode: code.rawValue)])
            #expect(t.s.media(since: mark).isEmpty)
            #expect(t.s.events(for: t.b, since: mark).isEmpty)
        }
        #expect(ErrorCode.callerIsAudience.rawValue == -3330 && ErrorCode.targetRoomNotFound.rawValue == -102046)
        #expect(ErrorCode.targetUserNotFound.rawValue == -102048 && ErrorCode.linkInvalidParameter.rawValue == -3328)
        #expect(t.s.engine.forwardingTotals == (0, 0))
    }

    @Test func linkingTwiceIsInvalidFromEitherSide() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        #expect(t.s.connectOtherRoom(t.a, to: "r2", "B").error?.code == .linkInvalidParameter)
        #expect(t.s.connectOtherRoom(t.b, to: "r1", "A").error?.code == .linkInvalidParameter)
        #expect(t.s.engine.forwardingTotals == (0, 1))
    }

    @Test func linkLimitPerAnchor() {
        var limits = RoomLimits()
        limits.maximumLinksPerUser = 1
        var t = TwoRooms(limits: limits)
        _ = t.s.enter("C", room: "r3")
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let mark = t.s.mark
        #expect(t.s.connectOtherRoom(t.a, to: "r3", "C").error?.code == .linkLimitReached)
        #expect(t.s.events(for: t.a, since: mark) == [.connected("r1", peerRoom: "r3", "C", errorCode: -102032)])
        #expect(t.s.engine.forwardingTotals == (0, 1))
    }

    @Test func linkLimitPerTargetRoom() {
        var limits = RoomLimits()
        limits.maximumLinksPerRoom = 1
        var t = TwoRooms(limits: limits)
        _ = t.s.enter("B2", room: "r2")
        let d = t.s.enter("D", room: "r4")
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        #expect(t.s.connectOtherRoom(d, to: "r2", "B2").error?.code == .targetRoomLinkLimit)
        #expect(t.s.events(for: d).last == .connected("r4", peerRoom: "r2", "B2", errorCode: -102047))
    }

    @Test func peerWithoutTheForwardGrantCannotBeLinked() {
        var t = TwoRooms(bGrants: Scenario().grants(forward: false))
        let mark = t.s.mark
        #expect(t.s.connectOtherRoom(t.a, to: "r2", "B").error?.code == .noForwardPermission)
        #expect(t.s.events(for: t.a, since: mark) == [.connected("r1", peerRoom: "r2", "B", errorCode: 4015)])
        #expect(t.s.events(for: t.b, since: mark).isEmpty)
        // Nor can it link itself.
        #expect(t.s.connectOtherRoom(t.b, to: "r1", "A").error?.code == .noForwardPermission)
        #expect(t.s.engine.forwardingTotals == (0, 0))
    }

    @Test func disconnectEndsTheLinkForBothRooms() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let mark = t.s.mark
        #expect(t.s.disconnectOtherRoom(t.b).value != nil)
        #expect(
            t.s.events(for: t.a, since: mark) == [
                .unpublished("B", .unpublish, room: "r1"), .left("B", .quit, room: "r1"), .disconnected("r1", peerRoom: "r2", "B", reason: "disconnect"),
            ])
        #expect(
            t.s.events(for: t.b, since: mark) == [
                .unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2"), .disconnected("r2", peerRoom: "r1", "A", reason: "disconnect"),
            ])
        #expect(t.s.events(for: t.v1, since: mark) == [.unpublished("B", .unpublish, room: "r1"), .left("B", .quit, room: "r1")])
        #expect(t.s.events(for: t.v2, since: mark) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2")])
        #expect(t.s.removedSources(since: mark).isEmpty)
        #expect(t.s.removedSinks(since: mark).count == 4)
        t.s.expectNoForwardingLeft()
        #expect(t.s.engine.memberCount(roomId: "r1") == 2 && t.s.engine.memberCount(roomId: "r2") == 2)
        // A second disconnect finds nothing.
        #expect(t.s.disconnectOtherRoom(t.a).error?.code == .userStartedNoLink)
        #expect(ErrorCode.userStartedNoLink.rawValue == -102043)
    }

    @Test func aLinkEndsWhenEitherAnchorLeaves() {
        for bLeaves in [true, false] {
            var t = TwoRooms()
            t.s.connectOtherRoom(t.a, to: "r2", "B")
            let (leaver, stayer, leaverRoom, stayerRoom) = bLeaves ? (t.b, t.a, "r2", "r1") : (t.a, t.b, "r1", "r2")
            let mark = t.s.mark
            t.s.leave(leaver, room: leaverRoom)
            #expect(
                t.s.events(for: stayer, since: mark) == [
                    .unpublished(leaver.userId, .clientDisconnected, room: stayerRoom), .left(leaver.userId, .quit, room: stayerRoom),
                    .disconnected(stayerRoom, peerRoom: leaverRoom, leaver.userId, reason: "peerLeft"),
                ])
            #expect(
                t.s.events(for: leaver, since: mark) == [
                    .unpublished(stayer.userId, .unpublish, room: leaverRoom), .left(stayer.userId, .quit, room: leaverRoom),
                    .disconnected(leaverRoom, peerRoom: stayerRoom, stayer.userId, reason: "left"),
                    .exit(.left, code: ErrorCode(0), room: leaverRoom),
                ])
            t.s.expectNoForwardingLeft()
            let left = t.s.mediaLeft()
            #expect(left.badBinds.isEmpty)
            #expect(left.sources == Set((bLeaves ? t.aSources : t.bSources).map(\.id)))
            #expect(left.sinks.count == 2)  // the stayer's own viewer
        }
    }

    @Test func aLinkEndsWhenAnAnchorDisconnects() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let mark = t.s.mark
        t.s.disconnect(t.b)
        #expect(
            t.s.events(for: t.a, since: mark) == [
                .unpublished("B", .clientDisconnected, room: "r1"), .left("B", .quit, room: "r1"),
                .disconnected("r1", peerRoom: "r2", "B", reason: "peerLeft"),
            ])
        #expect(
            t.s.events(for: t.v2, since: mark) == [
                .unpublished("B", .clientDisconnected, room: "r2"),
                .unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2"),
                .left("B", .dropped, room: "r2"),
            ])
        // The closed session hears neither onDisconnectOtherRoom nor an exit. (It is still sent
        // A's mirror leaving r2, because B is removed from r2 after its links end; the control
        // plane drops events for closed sessions.)
        #expect(!t.s.events(for: t.b, since: mark).contains { if case .disconnectOtherRoom = $0 { true } else { false } })
        t.s.expectNoForwardingLeft()
        #expect(t.s.mediaLeft().badBinds.isEmpty)
    }

    @Test func forwardModeHidesThePeersVideoInTheLocalRoomOnly() throws {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let v1VideoSink = try #require(t.s.snapshot(room: "r1", user: "v1")?.subscriptions.first { $0.publisherUserId == "B" }?.sinks.last)
        #expect(v1VideoSink.kind == .video)
        var mark = t.s.mark

        #expect(t.s.forwardMode(t.a, peerRoom: "r2", "B", muteVideo: true).value != nil)

        #expect(
            t.s.events(for: t.a, since: mark) == [
                .unpublished("B", .republish, room: "r1"), .published("B", mediaType: MediaType.audio, room: "r1"),
            ])
        let v1Events = t.s.events(for: t.v1, since: mark)
        #expect(Array(v1Events.prefix(2)) == [.unpublished("B", .republish, room: "r1"), .published("B", mediaType: MediaType.audio, room: "r1")])
        #expect(v1Events.last?.subscribed?.tracks.map(\.kind) == [.audio])
        #expect(t.s.events(for: t.b, since: mark).isEmpty)
        #expect(t.s.events(for: t.v2, since: mark).isEmpty)
        #expect(!t.s.binds(since: mark).contains { $0.source == t.bSources[1].id })
        #expect(t.s.snapshot(room: "r1", user: "B")?.publications[.main]?.map(\.kind) == [.audio])
        #expect(t.s.snapshot(room: "r2", user: "B")?.publications[.main]?.map(\.kind) == [.audio, .video])

        mark = t.s.mark
        #expect(t.s.forwardMode(t.a, peerRoom: "r2", "B", muteVideo: false).value != nil)
        #expect(
            t.s.events(for: t.a, since: mark) == [
                .unpublished("B", .republish, mediaType: MediaType.audio, room: "r1"), .published("B", room: "r1"),
            ])
        #expect(t.s.events(for: t.v2, since: mark).isEmpty)
        // v1's video sink is kept and bound again.
        #expect(t.s.binds(since: mark).contains { $0.sink == v1VideoSink.id && $0.source == t.bSources[1].id })
        #expect(t.s.addedSinks(since: mark).isEmpty)
    }

    @Test func forwardModeForAnUnknownPeerIsRoomHasNoLink() {
        var t = TwoRooms()
        #expect(t.s.forwardMode(t.a, peerRoom: "r2", "B", muteAudio: true).error?.code == .roomHasNoLink)
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        #expect(t.s.forwardMode(t.a, peerRoom: "r2", "v2", muteAudio: true).error?.code == .roomHasNoLink)
        #expect(t.s.forwardMode(t.a, peerRoom: "r3", "B", muteAudio: true).error?.code == .roomHasNoLink)
        #expect(ErrorCode.roomHasNoLink.rawValue == -102042)
    }

    @Test func forwardModeIsResetWhenTheLinkEnds() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        t.s.forwardMode(t.a, peerRoom: "r2", "B", muteVideo: true)
        t.s.disconnectOtherRoom(t.a)
        let mark = t.s.mark
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        #expect(Array(t.s.events(for: t.a, since: mark).prefix(2)) == [.mirrorJoined("B", from: "r2", room: "r1"), .published("B", room: "r1")])
    }

    @Test func linkedPeersStreamsFollowIntoTheOtherRoom() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        var mark = t.s.mark
        t.s.publish(t.b, .screen, room: "r2")
        #expect(t.s.events(for: t.a, since: mark) == [.published("B", .screen, room: "r1")])
        mark = t.s.mark
        t.s.forwardMode(t.a, peerRoom: "r2", "B", muteSubStream: true)
        #expect(t.s.events(for: t.a, since: mark) == [.unpublished("B", .unpublish, .screen, room: "r1")])
    }

    @Test func aMirrorsRoomDismissedEndsTheLink() {
        var t = TwoRooms()
        t.s.connectOtherRoom(t.a, to: "r2", "B")
        let mark = t.s.mark
        t.s.dismiss(room: "r1")
        #expect(
            t.s.events(for: t.b, since: mark) == [
                .unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2"), .disconnected("r2", peerRoom: "r1", "A", reason: "roomDismissed"),
            ])
        #expect(t.s.events(for: t.a, since: mark).last == .exit(.roomDismissed, code: .roomDismissed, room: "r1"))
        t.s.expectNoForwardingLeft()
        #expect(t.s.engine.roomIds == ["r2"])
        #expect(t.s.mediaLeft().badBinds.isEmpty)
    }
}
