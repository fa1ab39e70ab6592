import Foundation
import Protocol
import RoomEngine
import Testing

/// Forwards, links, invitations, messages and node loss across two cluster nodes, each node's
/// engine on its own, joined by the scripted peer link of ``ClusterScenario``: what every
/// session hears on each side, what crosses the link, and what each media plane is told.
@Suite struct CrossNodeScenarioTests {
    /// Anchor A publishing in r1 on node a with a viewer; anchor B and an auto-subscribing viewer
    /// in r2 on node b.
    struct Nodes {
        var c = ClusterScenario()
        let anchorA: Client, viewerA: Client, anchorB: Client, viewerB: Client
        let sourcesA: [SourceTrack]

        init() {
            anchorA = c.a.enter("A", room: "r1")
            c.a.publish(anchorA, room: "r1")
            sourcesA = c.a.addedSources()
            viewerA = c.a.enter("va", role: .audience, visible: false, autoSubscribe: true, room: "r1")
            anchorB = c.b.enter("B", room: "r2")
            c.b.publish(anchorB, room: "r2")
            viewerB = c.b.enter("vb", role: .audience, visible: false, autoSubscribe: true, room: "r2")
            c.deliver()
        }
    }

    @Test func forwardShowsTheUserThereAndItsTracksCrossOnlyOnceSomeoneWatches() throws {
        var n = Nodes()
        let markA = n.c.a.mark
        let markB = n.c.b.mark
        let result = try #require(n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"]).value)
        #expect(result.infos == [ForwardStreamStateInfo(roomId: "r2", state: 1, error: 0)])
        #expect(n.c.a.events(for: n.anchorA, since: markA) == [.forwardState("r1", "A", [("r2", .success, 0)])])
        // Node a makes one pipe sink per track, unbound: nothing crosses before b asks.
        let pipeSinks = n.c.a.addedSinks(since: markA)
        #expect(pipeSinks.map(\.transportId) == [n.c.pipeOnA, n.c.pipeOnA])
        #expect(n.c.a.binds(since: markA).isEmpty)
        let pending = n.c.pending()
        guard case .mirror(let update)? = pending.first else {
            Issue.record("no mirror in flight: \(pending)")
            return
        }
        #expect(update.node == "b" && update.targetRoomId == "r2" && update.userId == "A" && update.publications?.count == 1)

        n.c.deliver()
        #expect(n.c.b.events(for: n.anchorB, since: markB) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        let viewerEvents = n.c.b.events(for: n.viewerB, since: markB)
        #expect(Array(viewerEvents.prefix(2)) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(viewerEvents.last?.subscribed?.tracks.map(\.kind) == [.audio, .video])
        // On b the tracks arrive as sources on its pipe, keyed by the pipe sinks' SSRCs; its
        // viewer's bind made b want them, and a bound its pipe sinks to A's tracks.
        let remoteSources = n.c.b.addedSources(since: markB)
        #expect(remoteSources.map(\.transportId) == [n.c.pipeOnB, n.c.pipeOnB])
        #expect(remoteSources.map(\.ssrc) == pipeSinks.map(\.outputSSRC))
        #expect(Set(n.c.a.binds(since: markA).map(\.source)) == Set(n.sourcesA.map(\.id)))
        #expect(Set(n.c.a.binds(since: markA).map(\.sink)) == Set(pipeSinks.map(\.id)))
        #expect(n.c.b.engine.forwardedFrom(roomId: "r2", userId: "A") == "r1")
    }

    @Test func theLastViewerThereLettingGoStopsTheTrackCrossing() throws {
        var n = Nodes()
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        n.c.deliver()
        let pipeSinks = Set(n.c.a.addedSinks().filter { $0.transportId == n.c.pipeOnA }.map(\.id))
        let markA = n.c.a.mark
        n.c.b.unsubscribe(n.viewerB, from: "A", mediaType: MediaType.video, room: "r2")
        let pending = n.c.pending()
        guard case .demand(let demand)? = pending.first, pending.count == 1 else {
            Issue.record("expected one demand notice: \(pending)")
            return
        }
        #expect(demand.node == "a" && !demand.wanted)
        n.c.deliver()
        let unbound = n.c.a.media(since: markA).compactMap { if case .unbind(let sink) = $0 { sink } else { nil } }
        #expect(unbound.count == 1 && pipeSinks.contains(unbound[0]))
        // Subscribing again wants it again.
        n.c.b.subscribe(n.viewerB, to: "A", mediaType: MediaType.video, room: "r2")
        n.c.deliver()
        #expect(n.c.a.binds(since: markA).map(\.sink) == unbound)
    }

    @Test func aLayerSwitchThereKeepsTheOldLayerCrossingUntilTheNewOneCanHaveTakenOver() throws {
        var c = ClusterScenario()
        let anchorA = c.a.enter("A", room: "r1")
        c.a.publish(anchorA, tracks: DualStreamScenarioTests.dualTracks(anchorA), room: "r1")
        let anchorB = c.b.enter("B", room: "r2")
        c.b.publish(anchorB, room: "r2")
        let viewer = c.b.enter("vb", role: .audience, visible: false, room: "r2")
        c.deliver()
        c.forwardFromA(anchorA, room: "r1", into: ["r2"])
        c.deliver()
        _ = try #require(DualStreamScenarioTests.subscribe(&c.b, viewer, to: "A", .big, room: "r2").value)
        c.deliver()
        func demands() -> [PipeDemand] {
            c.pending().compactMap { if case .demand(let demand) = $0 { demand } else { nil } }
        }

        // To the small layer: wanted at once, and the big one still wanted while the sink waits
        // for the small one's keyframe.
        _ = try #require(DualStreamScenarioTests.setType(&c.b, viewer, of: "A", .small, room: "r2").value)
        let switched = demands()
        #expect(switched.count == 1 && switched.first?.wanted == true, "\(switched)")
        c.deliver()
        c.b.tick()
        c.advance(seconds: 1)
        c.b.tick()
        #expect(demands().isEmpty, "the big layer still crosses a second after the switch")
        // Past the linger the big layer is let go; the small one stays.
        c.advance(seconds: 1)
        c.b.tick()
        let released = demands()
        #expect(released.count == 1 && released.first?.wanted == false && released.first?.ssrc != switched.first?.ssrc, "\(released)")
        c.deliver()
        // Back to big before any tick, and at once to small again: the small layer stays
        // wanted by the lingering count, and nothing is asked twice.
        _ = try #require(DualStreamScenarioTests.setType(&c.b, viewer, of: "A", .big, room: "r2").value)
        #expect(demands().map(\.wanted) == [true])
        c.deliver()
        _ = try #require(DualStreamScenarioTests.setType(&c.b, viewer, of: "A", .small, room: "r2").value)
        #expect(demands().isEmpty, "the small layer was still wanted")
        c.b.tick()
        c.advance(seconds: 2)
        c.b.tick()
        #expect(demands().map(\.wanted) == [false], "the big layer let go again")
    }

    @Test func republishAndStopFollowTheForwardThere() throws {
        var n = Nodes()
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        n.c.deliver()
        var markB = n.c.b.mark
        n.c.a.unpublish(n.anchorA, room: "r1")
        n.c.deliver()
        #expect(n.c.b.events(for: n.anchorB, since: markB) == [.unpublished("A", .unpublish, room: "r2")])
        markB = n.c.b.mark
        n.c.a.publish(n.anchorA, room: "r1")
        n.c.deliver()
        #expect(n.c.b.events(for: n.anchorB, since: markB) == [.published("A", room: "r2")])
        markB = n.c.b.mark
        let markA = n.c.a.mark
        n.c.a.stopForward(n.anchorA, room: "r1")
        n.c.deliver()
        #expect(n.c.b.events(for: n.anchorB, since: markB) == [.unpublished("A", .unpublish, room: "r2"), .left("A", .quit, room: "r2")])
        #expect(n.c.b.engine.memberCount(roomId: "r2") == 2)
        // Node a let go of its pipe sinks; node b of its pipe sources.
        #expect(n.c.a.removedSinks(since: markA).count == 2)
        #expect(n.c.b.removedSources(since: markB).count == 2)
        n.c.a.expectNoForwardingLeft()
    }

    @Test func aMirrorTheTargetNodeRefusesFailsTheForwardTargetWithItsCode() throws {
        var n = Nodes()
        // The target room already has a real user named A when the mirror arrives.
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        _ = n.c.b.enter("A", room: "r2")
        let markA = n.c.a.mark
        n.c.deliver()
        // As on one node: the target fails with 1204 and the forward hears it was interrupted.
        #expect(
            n.c.a.events(for: n.anchorA, since: markA) == [
                .forwardState("r1", "A", [("r2", .failure, ErrorCode.forwardRemoteKicked.rawValue)]), .forwardEvent("r1", "A", [("r2", .interrupt)]),
            ])
        n.c.a.expectNoForwardingLeft()
    }

    @Test func aKickOnTheTargetNodeEndsTheForwardTargetOnTheSourceNode() throws {
        var n = Nodes()
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        n.c.deliver()
        let markA = n.c.a.mark
        n.c.b.kick("A", room: "r2")
        n.c.deliver()
        let events = n.c.a.rawEvents(for: n.anchorA.session, since: markA)
        guard case .forwardStreamStateChanged(let changed)? = events.first else {
            Issue.record("no state change: \(events)")
            return
        }
        #expect(changed.infos.map(\.roomId) == ["r2"] && changed.infos[0].state == ForwardState.failure.rawValue)
        #expect(changed.infos[0].error == ErrorCode.forwardRemoteKicked.rawValue)
    }

    @Test func aLinkShowsEachAnchorInTheOtherRoomAndEndsOnBothSides() throws {
        var n = Nodes()
        let markA = n.c.a.mark
        let markB = n.c.b.mark
        let event = try #require(n.c.linkFromA(n.anchorA, room: "r1", to: "r2", "B").value)
        #expect(event.errorCode == 0 && event.roomId == "r1" && event.peerRoomId == "r2")
        n.c.deliver()
        #expect(n.c.a.events(for: n.anchorA, since: markA).first == .connected("r1", peerRoom: "r2", "B"))
        #expect(n.c.b.events(for: n.anchorB, since: markB).first == .connected("r2", peerRoom: "r1", "A"))
        #expect(n.c.a.events(for: n.viewerA, since: markA).prefix(2) == [.mirrorJoined("B", from: "r2", room: "r1"), .published("B", room: "r1")])
        #expect(n.c.b.events(for: n.viewerB, since: markB).prefix(2) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(n.c.a.engine.forwardingTotals.links == 1 && n.c.b.engine.forwardingTotals.links == 1)

        let endA = n.c.a.mark
        let endB = n.c.b.mark
        n.c.b.disconnectOtherRoom(n.anchorB, room: "r2")
        n.c.deliver()
        #expect(n.c.b.events(for: n.anchorB, since: endB).contains(.disconnected("r2", peerRoom: "r1", "A", reason: "disconnect")))
        #expect(n.c.a.events(for: n.anchorA, since: endA).contains(.disconnected("r1", peerRoom: "r2", "B", reason: "disconnect")))
        #expect(n.c.a.events(for: n.viewerA, since: endA).suffix(2) == [.unpublished("B", .unpublish, room: "r1"), .left("B", .quit, room: "r1")])
        n.c.a.expectNoForwardingLeft()
        n.c.b.expectNoForwardingLeft()
    }

    @Test func aRoomMessageToLinkedRoomsReachesTheOtherNodesMembers() throws {
        var n = Nodes()
        n.c.linkFromA(n.anchorA, room: "r1", to: "r2", "B")
        n.c.deliver()
        let markB = n.c.b.mark
        n.c.a.roomMessage(n.anchorA, room: "r1", "hello both rooms", toLinkedRooms: true)
        n.c.deliver()
        let expected = ServerEvent.roomMessage("hello both rooms", from: "A", room: "r2", fromRoom: "r1")
        #expect(n.c.b.events(for: n.viewerB, since: markB) == [expected])
        #expect(n.c.b.events(for: n.anchorB, since: markB) == [expected])
    }

    @Test func anInvitationAcceptedOnTheOtherNodeReachesTheCaller() throws {
        var n = Nodes()
        let markA = n.c.a.mark
        let markB = n.c.b.mark
        let invite = try #require(n.c.inviteFromA(n.anchorA, room: "r1", to: "r2", "B").value)
        let received = n.c.b.rawEvents(for: n.anchorB.session, since: markB)
        guard case .invitationReceived(let incoming)? = received.first else {
            Issue.record("no invitation received: \(received)")
            return
        }
        #expect(incoming.inviteId == invite.inviteId && incoming.fromRoomId == "r1" && incoming.fromUserId == "A")
        n.c.b.accept(n.anchorB, invite.inviteId)
        n.c.deliver()
        let callerHeard = n.c.a.events(for: n.anchorA, since: markA)
        #expect(callerHeard.last == .invitation(invite.inviteId, "caller", .accepted, room: "r1", peerRoom: "r2", "B"))
    }

    @Test func losingTheOtherNodeDisconnectsForwardsEndsLinksAndDropsItsMirrors() throws {
        var n = Nodes()
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        n.c.deliver()
        let pending = n.c.b.mark
        let invite = try #require(n.c.inviteFromA(n.anchorA, room: "r1", to: "r2", "B").value)
        _ = pending
        let markA = n.c.a.mark
        let markB = n.c.b.mark
        n.c.disconnect()
        #expect(n.c.a.events(for: n.anchorA, since: markA).first == .forwardEvent("r1", "A", [("r2", .disconnected)]))
        #expect(
            n.c.a.events(for: n.anchorA, since: markA).contains(
                .invitation(invite.inviteId, "caller", .failure, room: "r1", peerRoom: "r2", "B", reason: "peerUnreachable")))
        #expect(n.c.b.events(for: n.viewerB, since: markB).suffix(2) == [.unpublished("A", .other, room: "r2"), .left("A", .dropped, room: "r2")])
        #expect(
            n.c.b.events(for: n.anchorB, since: markB).contains(
                .invitation(invite.inviteId, "callee", .failure, room: "r2", peerRoom: "r1", "A", reason: "peerUnreachable")))
        // Both pipes close after everything on them.
        #expect(n.c.a.media(since: markA).last == .closeTransport(n.c.pipeOnA))
        #expect(n.c.b.media(since: markB).last == .closeTransport(n.c.pipeOnB))
        #expect(n.c.a.media(since: markA).filter { if case .removeSink = $0 { true } else { false } }.count == 2)

        // The forward stands on node a; when the connection is back its mirror is shown again.
        let againA = n.c.a.mark
        let againB = n.c.b.mark
        n.c.connect()
        n.c.deliver()
        #expect(n.c.a.events(for: n.anchorA, since: againA) == [.forwardEvent("r1", "A", [("r2", .connected)])])
        #expect(n.c.b.events(for: n.anchorB, since: againB) == [.mirrorJoined("A", from: "r1", room: "r2"), .published("A", room: "r2")])
        #expect(n.c.b.events(for: n.viewerB, since: againB).last?.subscribed?.state == .success)
        #expect(n.c.a.binds(since: againA).count == 2)
    }

    @Test func aNodeGoneForGoodFailsItsForwardTargetsAsADismissedRoom() throws {
        var n = Nodes()
        n.c.forwardFromA(n.anchorA, room: "r1", into: ["r2"])
        n.c.deliver()
        n.c.disconnect()
        let markA = n.c.a.mark
        _ = n.c.a.record(actions: n.c.a.engine.remoteNodeGone("b"))
        #expect(
            n.c.a.events(for: n.anchorA, since: markA) == [
                .forwardState("r1", "A", [("r2", .failure, ErrorCode.forwardResponse.rawValue)]), .forwardEvent("r1", "A", [("r2", .dstRoomUpdated)]),
            ])
        n.c.a.expectNoForwardingLeft()
    }

    @Test func everyNoticeCrossesTheConnectionAsJSONAndBackUnchanged() throws {
        var n = Nodes()
        n.c.linkFromA(n.anchorA, room: "r1", to: "r2", "B")
        n.c.a.roomMessage(n.anchorA, room: "r1", "hi", toLinkedRooms: true)
        var seen: [NodeNotice] = n.c.pending()
        n.c.deliver()
        _ = n.c.inviteFromA(n.anchorA, room: "r1", to: "r2", "B")
        n.c.b.unsubscribe(n.viewerB, from: "A", room: "r2")
        n.c.b.disconnectOtherRoom(n.anchorB, room: "r2")
        seen += n.c.pending()
        // Mirrors both ways, a message, demand, a link end and a mirror removal.
        let kinds = Set(
            seen.map { notice -> String in
                switch notice {
                case .mirror: "mirror"
                case .mirrorEnded: "mirrorEnded"
                case .linkEnded: "linkEnded"
                case .message: "message"
                case .invitation: "invitation"
                case .demand: "demand"
                case .replica, .follow, .unfollow, .edgeRoomEnded: "edge"
                }
            })
        #expect(kinds.isSuperset(of: ["mirror", "message", "demand", "linkEnded"]), "\(kinds)")
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for notice in seen {
            let decoded = try decoder.decode(NodeNotice.self, from: try encoder.encode(notice))
            #expect(decoded == notice)
        }
    }
}
