import Foundation
import Protocol
import RoomEngine
import Testing

/// One room served by two nodes: node a holds it (its origin), node b serves some of its viewers
/// (an edge), joined by the scripted peer link of ``ClusterScenario``. A viewer on b hears what
/// a viewer on a hears; the tracks cross once per watched track and layer; the edge lets go when
/// its last viewer leaves, ends with the room, and follows again after a lost connection.
@Suite struct EdgeScenarioTests {
    /// Anchor A publishing on node a with an auto-subscribing viewer there, and node b serving
    /// the room as an edge, nobody there yet.
    struct Edge {
        var c = ClusterScenario()
        let anchor: Client, viewerA: Client
        let sources: [SourceTrack]

        init(tracks: (Client) -> [TrackDescription]? = { _ in nil }) {
            anchor = c.a.enter("A")
            c.a.publish(anchor, tracks: tracks(anchor))
            sources = c.a.addedSources()
            viewerA = c.a.enter("va", role: .audience, visible: false, autoSubscribe: true)
            c.deliver()
            serve()
        }

        /// Node b serves the room as node a's edge (as the relay core does before a viewer joins).
        mutating func serve() {
            let outcome = c.b.record(c.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)))
            #expect(outcome.error == nil)
            c.deliver()
        }

        /// A viewer joining on node b, with what crossed delivered.
        mutating func viewerOnB(_ userId: String, visible: Bool = false, autoSubscribe: Bool = true) -> Client {
            let viewer = c.b.enter(userId, role: .audience, visible: visible, autoSubscribe: autoSubscribe)
            c.deliver()
            return viewer
        }

        /// Pipe sinks node a made toward b since `mark`.
        func pipeSinksOnA(since mark: Int = 0) -> [SinkTrack] {
            c.a.addedSinks(since: mark).filter { $0.transportId == c.pipeOnA }
        }
    }

    /// Events as a viewer on either node hears them: a subscription's SSRCs and transport are the
    /// node's own, so they are blanked.
    static func comparable(_ events: [ServerEvent]) -> [ServerEvent] {
        events.map { event in
            guard case .streamSubscribed(var result) = event else { return event }
            result.tracks = result.tracks.map { track in
                var track = track
                track.ssrc = 0
                track.rtxSSRC = nil
                track.transportId = 0
                return track
            }
            return .streamSubscribed(result)
        }
    }

    @Test func aViewerOnTheEdgeHearsWhatAViewerOnTheOriginHears() throws {
        var e = Edge()
        let markA = e.c.a.mark
        let viewerB = e.viewerOnB("vb")
        // The join: the anchor already there and its stream, subscribed at once.
        let onB = Self.comparable(e.c.b.events(for: viewerB))
        #expect(onB.prefix(3) == [.roomState("vb"), .joined("A"), .published("A")])
        #expect(onB.last?.subscribed?.tracks.map(\.kind) == [.audio, .video])
        #expect(e.c.a.events(for: e.viewerA, since: markA).isEmpty, "an invisible viewer on b is not heard on a")

        // Everything after: a second anchor comes, publishes its screen, A republishes, A turns
        // audience, B leaves.
        let markOnA = e.c.a.mark
        let markOnB = e.c.b.mark
        let anchorB = e.c.a.enter("B")
        e.c.a.publish(anchorB, .screen)
        e.c.a.publish(e.anchor)
        e.c.a.switchRole(e.anchor, to: .audience)
        e.c.a.advance(seconds: 1)
        e.c.a.leave(anchorB)
        e.c.deliver()
        let heardOnA = Self.comparable(e.c.a.events(for: e.viewerA, since: markOnA))
        let heardOnB = Self.comparable(e.c.b.events(for: viewerB, since: markOnB))
        #expect(heardOnA.count >= 8, "\(heardOnA)")
        #expect(heardOnB == heardOnA)
    }

    @Test func aJoinOnTheEdgeListsTheOriginsVisibleMembersWithTheirStreams() throws {
        var e = Edge()
        let guest = e.c.a.enter("guest", role: .audience, visible: true)
        e.c.deliver()
        let viewerB = e.c.b.connect("vb")
        let onB = try #require(e.c.b.join(viewerB, role: .audience, visible: false).value)
        let viewerA = e.c.a.connect("va2")
        let onA = try #require(e.c.a.join(viewerA, role: .audience, visible: false).value)
        #expect(onB.users == onA.users)
        #expect(onB.users.map(\.userId) == ["A", guest.userId])
    }

    @Test func manyViewersOnTheEdgeTakeOneCopyOfEachTrack() throws {
        var e = Edge()
        let markA = e.c.a.mark
        _ = e.viewerOnB("v1")
        _ = e.viewerOnB("v2")
        _ = e.viewerOnB("v3")
        // One pipe sink per track of A (made when b followed the room), bound once when b's
        // first viewer subscribed: the three viewers share what crosses.
        let pipeSinks = e.pipeSinksOnA()
        #expect(pipeSinks.count == e.sources.count)
        #expect(Set(e.c.a.binds(since: markA).map(\.source)) == Set(e.sources.map(\.id)))
        #expect(e.c.a.binds(since: markA).count == e.sources.count)
        // b subscribes its three viewers to the tracks arriving on its pipe.
        let sinksOnB = e.c.b.addedSinks().filter { $0.transportId != e.c.pipeOnB }
        #expect(sinksOnB.count == 3 * e.sources.count)
        #expect(Set(e.c.b.addedSources().map(\.transportId)) == [e.c.pipeOnB])
    }

    @Test func viewersOfTheSmallLayerOnlyBringOnlyTheSmallLayerAcross() throws {
        var e = Edge(tracks: { DualStreamScenarioTests.dualTracks($0) })
        let markA = e.c.a.mark
        let viewer = e.viewerOnB("vb", autoSubscribe: false)
        _ = try #require(DualStreamScenarioTests.subscribe(&e.c.b, viewer, to: "A", .small).value)
        e.c.deliver()
        let small = try #require(e.sources.first { $0.kind == .video && $0.videoStreamType == .small })
        let audio = try #require(e.sources.first { $0.kind == .audio })
        #expect(Set(e.c.a.binds(since: markA).map(\.source)) == [small.id, audio.id])
    }

    @Test func aVisibleViewerOnTheEdgeIsSeenOnTheOriginAndLeavesThere() throws {
        var e = Edge()
        let markA = e.c.a.mark
        let guest = e.viewerOnB("guest", visible: true)
        #expect(e.c.a.events(for: e.viewerA, since: markA) == [.joined("guest", .audience)])
        // A viewer joining on a later lists it, as a user of the room.
        let late = e.c.a.connect("late")
        let listed = try #require(e.c.a.join(late, role: .audience, visible: false).value)
        #expect(listed.users.map(\.userId) == ["A", "guest"])
        let markLeave = e.c.a.mark
        e.c.b.setVisible(guest, false)
        e.c.deliver()
        #expect(e.c.a.events(for: e.viewerA, since: markLeave) == [.left("guest", .switchToInvisible)])
    }

    @Test func theLastViewerOnTheEdgeLeavingLetsTheTracksGo() throws {
        var e = Edge()
        let v1 = e.viewerOnB("v1")
        let v2 = e.viewerOnB("v2")
        let pipeSinks = Set(e.pipeSinksOnA().map(\.id))
        let markA = e.c.a.mark
        e.c.b.leave(v1)
        e.c.deliver()
        #expect(Set(e.c.a.removedSinks(since: markA)).isDisjoint(with: pipeSinks))
        e.c.b.leave(v2)
        let pending = e.c.pending()
        #expect(pending.contains(.unfollow(EdgeFollow(node: "a", roomId: Scenario.room, epoch: 1))), "\(pending)")
        e.c.deliver()
        #expect(Set(e.c.a.removedSinks(since: markA)) == pipeSinks)
        #expect(e.c.b.engine.roomIds.isEmpty && e.c.b.engine.edgeRoomIds.isEmpty)
        #expect(e.c.a.engine.edges(of: Scenario.room).isEmpty)
        #expect(e.c.a.engine.memberCount(roomId: Scenario.room) == 2)
        // The room is created and ends at its origin: the edge says neither (webhooks come from there).
        let roomEvents = e.c.b.domainEvents().filter {
            if case .roomCreated = $0 { return true }
            if case .roomEnded = $0 { return true }
            return false
        }
        #expect(roomEvents.isEmpty, "\(roomEvents)")
    }

    @Test func aRoomOnlyEdgeViewersAreInStaysPlacedUntilTheyLeave() throws {
        var c = ClusterScenario()
        _ = c.b.record(c.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)))
        let viewer = c.b.enter("vb", role: .audience, visible: false, autoSubscribe: true)
        c.deliver()
        #expect(c.a.engine.memberCount(roomId: Scenario.room) == 0, "the origin keeps the room for its edge")
        #expect(c.a.domainEvents().contains(.roomCreated(roomId: Scenario.room)))
        let markB = c.b.mark
        let anchor = c.a.enter("A")
        c.a.publish(anchor)
        c.a.leave(anchor)
        c.deliver()
        #expect(c.b.events(for: viewer, since: markB).prefix(2) == [.joined("A"), .published("A")])
        #expect(c.b.events(for: viewer, since: markB).suffix(2) == [.unpublished("A", .clientDisconnected), .left("A", .quit)])
        #expect(c.a.engine.memberCount(roomId: Scenario.room) == 0)
        let markA = c.a.mark
        c.b.leave(viewer)
        c.deliver()
        #expect(c.a.domainEvents(since: markA) == [.roomEnded(roomId: Scenario.room)])
        #expect(c.a.engine.roomIds.isEmpty)
    }

    @Test func dismissingTheRoomAtTheOriginEndsItOnTheEdge() throws {
        var e = Edge()
        let viewer = e.viewerOnB("vb")
        let markB = e.c.b.mark
        e.c.a.dismiss()
        e.c.deliver()
        let heard = e.c.b.events(for: viewer, since: markB)
        #expect(heard.last == .exit(.roomDismissed, code: .roomDismissed))
        #expect(heard.contains(.left("A", .kickedByAdmin)))
        #expect(e.c.b.engine.roomIds.isEmpty && e.c.b.engine.edgeRoomIds.isEmpty)
        #expect(e.c.a.engine.roomIds.isEmpty)
        #expect(e.c.a.domainEvents().contains(.roomEnded(roomId: Scenario.room)))
    }

    @Test func aLostConnectionDropsTheOriginsMembersAndFollowingAgainBringsThemBack() throws {
        var e = Edge()
        let viewer = e.viewerOnB("vb")
        let markB = e.c.b.mark
        e.c.disconnect()
        #expect(e.c.b.events(for: viewer, since: markB) == [.unpublished("A", .other), .left("A", .dropped)])
        #expect(e.c.b.engine.edgeRoomIds == [Scenario.room], "the edge keeps serving its viewers")
        #expect(e.c.a.engine.edges(of: Scenario.room).isEmpty)
        let markAgain = e.c.b.mark
        let markA = e.c.a.mark
        e.c.connect()
        e.c.deliver()
        let again = e.c.b.events(for: viewer, since: markAgain)
        #expect(again.prefix(2) == [.joined("A"), .published("A")])
        #expect(again.last?.subscribed?.tracks.map(\.kind) == [.audio, .video])
        #expect(e.c.a.engine.edges(of: Scenario.room) == ["b"])
        #expect(e.pipeSinksOnA(since: markA).count == e.sources.count)
    }

    @Test func theOriginGoneForGoodEndsTheRoomOnTheEdge() throws {
        var e = Edge()
        let viewer = e.viewerOnB("vb")
        e.c.disconnect()
        let markB = e.c.b.mark
        _ = e.c.b.record(actions: e.c.b.engine.remoteNodeGone("a"))
        #expect(e.c.b.events(for: viewer, since: markB) == [.exit(.roomDismissed, code: .roomDismissed)])
        #expect(e.c.b.engine.roomIds.isEmpty && e.c.b.engine.edgeRoomIds.isEmpty)
    }

    @Test func roomMessagesReachTheRoomOnEveryNode() throws {
        var e = Edge()
        let viewerB = e.viewerOnB("vb", visible: true)
        let marks = (a: e.c.a.mark, b: e.c.b.mark)
        e.c.a.roomMessage(e.anchor, room: Scenario.room, "score 3:2")
        e.c.deliver()
        let fromAnchor = ServerEvent.roomMessage("score 3:2", from: "A", room: Scenario.room)
        #expect(e.c.b.events(for: viewerB, since: marks.b) == [fromAnchor])
        #expect(e.c.a.events(for: e.viewerA, since: marks.a) == [fromAnchor])
        // A viewer on the edge speaks to the whole room.
        let again = (a: e.c.a.mark, b: e.c.b.mark)
        e.c.b.roomMessage(viewerB, room: Scenario.room, "gg")
        e.c.deliver()
        let fromViewer = ServerEvent.roomMessage("gg", from: "vb", room: Scenario.room)
        #expect(e.c.a.events(for: e.anchor, since: again.a) == [fromViewer])
        #expect(e.c.a.events(for: e.viewerA, since: again.a) == [fromViewer])
        #expect(e.c.b.events(for: viewerB, since: again.b).isEmpty, "the sender does not hear itself")
    }

    @Test func aLinkedRoomsMessageReachesTheEdgeThroughTheOrigin() throws {
        // Room r2 on b, linked with A's room on a; b is also the edge of A's room.
        var e = Edge()
        let viewerB = e.viewerOnB("vb")
        let anchorB = e.c.b.enter("B", room: "r2")
        e.c.b.publish(anchorB, room: "r2")
        e.c.deliver()
        let params = ConnectOtherRoomParams(roomId: Scenario.room, userId: "A", localRoomId: "r2")
        if case .failure(let error) = e.c.b.engine.validateRemoteLink(session: anchorB.session, params: params) { Issue.record("\(error)") }
        let accepted = e.c.a.record(
            e.c.a.engine.acceptRemoteLink(
                from: e.c.target("r2", on: "b"), callerRoomId: "r2", callerUserId: "B", peerRoomId: Scenario.room, peerUserId: "A", now: e.c.a.now))
        #expect(accepted.error == nil)
        _ = e.c.b.record(e.c.b.engine.createRemoteLink(session: anchorB.session, params: params, remote: e.c.target(Scenario.room, on: "a"), now: e.c.b.now))
        e.c.deliver()
        let mark = e.c.b.mark
        e.c.b.roomMessage(anchorB, room: "r2", "from r2", toLinkedRooms: true)
        e.c.deliver()
        #expect(e.c.b.events(for: viewerB, since: mark) == [.roomMessage("from r2", from: "B", room: Scenario.room, fromRoom: "r2")])
    }

    @Test func aViewerOnTheEdgeReachesTheLinkedRoomsThroughTheOrigin() throws {
        // A's room on a, linked there with C's room r3; b serves A's room as an edge, which
        // holds none of its links.
        var e = Edge()
        let viewerB = e.viewerOnB("vb")
        let anchorC = e.c.a.enter("C", room: "r3")
        e.c.a.publish(anchorC, room: "r3")
        #expect(e.c.a.connectOtherRoom(anchorC, room: "r3", to: Scenario.room, "A").error == nil)
        e.c.deliver()
        let marks = (a: e.c.a.mark, b: e.c.b.mark)
        e.c.b.roomMessage(viewerB, room: Scenario.room, "go A", toLinkedRooms: true)
        e.c.deliver()
        // Its own room on both nodes, once each, and the linked room, through the origin.
        #expect(e.c.a.events(for: e.viewerA, since: marks.a) == [.roomMessage("go A", from: "vb", room: Scenario.room)])
        #expect(
            e.c.a.events(for: anchorC, since: marks.a).filter { if case .roomMessageReceived = $0 { true } else { false } }
                == [.roomMessage("go A", from: "vb", room: "r3", fromRoom: Scenario.room)])
        #expect(e.c.b.events(for: viewerB, since: marks.b).isEmpty, "the sender does not hear itself")
        // Without toLinkedRooms the linked room hears nothing.
        let again = e.c.a.mark
        e.c.b.roomMessage(viewerB, room: Scenario.room, "just us")
        e.c.deliver()
        #expect(e.c.a.events(for: anchorC, since: again).filter { if case .roomMessageReceived = $0 { true } else { false } }.isEmpty)
        // The mark crosses the connection; a node that predates it sends none, read as nil.
        let event = MessageReceivedEvent(roomId: Scenario.room, fromRoomId: Scenario.room, userId: "vb", message: "go A", binary: nil)
        let marked = NodeNotice.message(
            RemoteMessage(node: "a", roomId: Scenario.room, recipientUserId: nil, event: event, withinRoom: true, toLinkedRooms: true))
        #expect(try JSONDecoder().decode(NodeNotice.self, from: JSONEncoder().encode(marked)) == marked)
        let plain = try JSONEncoder().encode(RemoteMessage(node: "a", roomId: Scenario.room, recipientUserId: nil, event: event, withinRoom: true))
        #expect(!String(decoding: plain, as: UTF8.self).contains("toLinkedRooms"))
        #expect(try JSONDecoder().decode(RemoteMessage.self, from: plain).toLinkedRooms == nil)
    }

    @Test func userMessagesReachTheirRecipientOnItsNode() throws {
        var e = Edge()
        let viewerB = e.viewerOnB("vb", visible: true)
        let marks = (a: e.c.a.mark, b: e.c.b.mark)
        e.c.b.userMessage(viewerB, room: Scenario.room, to: "A", "hello")
        e.c.a.userMessage(e.anchor, room: Scenario.room, to: "vb", "welcome")
        e.c.deliver()
        #expect(e.c.a.events(for: e.anchor, since: marks.a) == [.userMessage("hello", from: "vb", room: Scenario.room)])
        #expect(e.c.b.events(for: viewerB, since: marks.b) == [.userMessage("welcome", from: "A", room: Scenario.room)])
    }

    @Test func everyEdgeNoticeCrossesTheConnectionAsJSONAndBackUnchanged() throws {
        var c = ClusterScenario()
        c.a.publish(c.a.enter("A"))
        c.deliver()
        let serve = c.b.record(c.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)))
        #expect(serve.error == nil)
        var seen = c.pending()
        let viewer = c.b.enter("vb", role: .audience, visible: true, autoSubscribe: true)
        seen += c.pending()
        c.deliver()
        c.b.leave(viewer)
        seen += c.pending()
        c.deliver()
        _ = c.b.record(c.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)))
        _ = c.b.enter("vc", role: .audience, visible: false)
        c.deliver()
        c.a.dismiss()
        seen += c.pending()
        var kinds = Set<String>()
        for notice in seen {
            switch notice {
            case .replica(let update): kinds.insert(update.publications == nil ? "replica gone" : "replica")
            case .follow: kinds.insert("follow")
            case .unfollow: kinds.insert("unfollow")
            case .edgeRoomEnded: kinds.insert("edgeRoomEnded")
            default: continue
            }
            let decoded = try JSONDecoder().decode(NodeNotice.self, from: try JSONEncoder().encode(notice))
            #expect(decoded == notice)
        }
        #expect(kinds == ["replica", "replica gone", "follow", "unfollow", "edgeRoomEnded"], "\(kinds)")
    }

    @Test func aRoomHeldHereCannotAlsoBeServedAsAnEdge() throws {
        var c = ClusterScenario()
        _ = c.b.enter("B")
        let refused = c.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1))
        #expect(refused.error?.code == .wrongState)
        var d = ClusterScenario()
        _ = d.b.record(d.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)))
        #expect(d.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "c", epoch: 1)).error?.code == .wrongState)
        #expect(d.b.engine.serveAsEdge(roomId: Scenario.room, origin: EdgeOrigin(node: "a", epoch: 1)).error == nil)
    }
}
