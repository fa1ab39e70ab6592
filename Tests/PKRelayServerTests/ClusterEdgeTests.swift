import Cluster
import Foundation
import MediaPlane
import RoomEngine
import Testing

@testable import PKRelayServer

/// Edge fan-out between two relay cores joined in process (``ClusterPair``, `cluster.edges` on):
/// a room held on node a, audience served on node b. What b's viewers hear, what crosses the
/// media pipe and when, and how the edge room ends.
@Suite("Edges: a room's audience served by another node", .timeLimit(.minutes(1)))
struct ClusterEdgeTests {
    /// Anchor A publishing in room "pk" on node a.
    static func origin(_ pair: ClusterPair) async throws -> CoreClient {
        try await ClusterPair.anchor(pair.a, room: "pk", user: "A", ssrcBase: 1000)
    }

    /// What node a's media plane was told to send on its pipe to b: the sinks added there.
    static func pipeSinks(on node: ClusterPair.Node, to peer: String) async -> [MediaSinkSpec] {
        guard let pipe = await node.core.peerState[peer]?.transportId else { return [] }
        return node.media.changes.compactMap { change -> MediaSinkSpec? in
            guard case .addSink(let spec) = change, spec.transportId == pipe else { return nil }
            return spec
        }
    }

    static func binds(of sinks: [MediaSinkSpec], on node: ClusterPair.Node) -> [UInt32] {
        let ids = Set(sinks.map(\.id))
        return node.media.changes.compactMap { change -> UInt32? in
            guard case .bind(let sink, _) = change, ids.contains(sink) else { return nil }
            return sink
        }
    }

    /// Subscribes `viewer` in "pk" to A's main stream on a new plain transport.
    static func subscribeToA(_ viewer: CoreClient) async throws {
        let created = try await viewer.request("createTransport", ["srtpProfile": "none"])
        let transport = try #require((created["result"] as? [String: Any])?["transportId"] as? Int, "\(created)")
        let subscribed = try await viewer.request("subscribeStream", ["roomId": "pk", "userId": "A", "transportId": transport])
        #expect(subscribed["error"] == nil, "\(subscribed)")
    }

    @Test("an audience join for a room held on another node stays on this node and lists that node's anchors with their streams")
    func audienceIsServedOnTheEdge() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let viewer = await CoreClient(pair.b.core)
        let answer = try await viewer.request(
            "joinRoom", ["roomId": "pk", "userId": "v1", "role": "audience", "visible": false, "token": ClusterPair.token(room: "pk", user: "v1")])
        let result = try #require(answer["result"] as? [String: Any], "\(answer)")
        let users = result["users"] as? [[String: Any]] ?? []
        #expect(users.map { $0["userId"] as? String } == ["A"])
        #expect((users.first?["streams"] as? [[String: Any]])?.count == 1)
        // The events follow the answer on their own stream: wait for the last, then check the order.
        try await viewer.waitFor("onUserPublishStream") { $0["event"] as? String == "onUserPublishStream" }
        #expect(viewer.eventNames.prefix(3) == ["onRoomStateChanged", "onUserJoined", "onUserPublishStream"])
        #expect(await pair.b.core.engine.edgeOrigin(of: "pk")?.node == "a")
        #expect(await pair.a.core.engine.edges(of: "pk") == ["b"])
        // Nothing crosses before a viewer on b subscribes; then each track once.
        let sinks = await Self.pipeSinks(on: pair.a, to: "b")
        #expect(sinks.count == 2)
        #expect(Self.binds(of: sinks, on: pair.a).isEmpty)
        try await Self.subscribeToA(viewer)
        let second = try await ClusterPair.join(pair.b, room: "pk", user: "v2", role: "audience", visible: false)
        try await Self.subscribeToA(second)
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.binds(of: sinks, on: pair.a).count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Set(Self.binds(of: sinks, on: pair.a)) == Set(sinks.map(\.id)))
        #expect(Self.binds(of: sinks, on: pair.a).count == 2, "two viewers on b, one copy of each track")
        await pair.close()
    }

    @Test("an anchor join for a room held on another node is redirected there, edges or not")
    func anchorsGoToTheOrigin() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let anchor = await CoreClient(pair.b.core)
        let answer = try await anchor.request("joinRoom", ["roomId": "pk", "userId": "B", "token": ClusterPair.token(room: "pk", user: "B")])
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == 4030, "\(answer)")
        #expect(await pair.b.core.engine.edgeRoomIds.isEmpty)
        await pair.close()
    }

    @Test("without cluster.edges an audience join is redirected to the room's node as before")
    func edgesOffRedirects() async throws {
        let pair = await ClusterPair()
        _ = try await Self.origin(pair)
        let viewer = await CoreClient(pair.b.core)
        let answer = try await viewer.request(
            "joinRoom", ["roomId": "pk", "userId": "v1", "role": "audience", "token": ClusterPair.token(room: "pk", user: "v1")])
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == 4030, "\(answer)")
        await pair.close()
    }

    @Test("a refused audience join leaves no edge room behind")
    func refusedJoinReleasesTheEdgeRoom() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let viewer = await CoreClient(pair.b.core)
        let answer = try await viewer.request(
            "joinRoom", ["roomId": "pk", "userId": "v1", "role": "audience", "token": ClusterPair.token(room: "other", user: "v1")])
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == -1000, "\(answer)")
        #expect(await pair.b.core.engine.edgeRoomIds.isEmpty)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !pair.a.core.engine.edges(of: "pk").isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await pair.a.core.engine.edges(of: "pk").isEmpty)
        await pair.close()
    }

    @Test("a visible viewer on the edge is seen by the room's anchor, and its leave too")
    func visibleEdgeViewerIsSeenAtTheOrigin() async throws {
        let pair = await ClusterPair(edges: true)
        let anchor = try await Self.origin(pair)
        let mark = anchor.mark
        let guest = try await ClusterPair.join(pair.b, room: "pk", user: "guest", role: "audience", visible: true)
        try await anchor.waitFor("guest joins", since: mark) { ClusterPeerLinkTests.is($0, "onUserJoined", user: "guest") }
        _ = try await guest.request("leaveRoom", ["roomId": "pk"])
        let left = try await anchor.waitFor("guest leaves", since: mark) { ClusterPeerLinkTests.is($0, "onUserLeave", user: "guest") }
        #expect((left["data"] as? [String: Any])?["reason"] as? Int == 0, "Quit: \(left)")
        await pair.close()
    }

    @Test("the room dismissed on its node: viewers on the edge hear onExitRoom -1011 and the edge lets go")
    func dismissEndsTheEdgeRoom() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let viewer = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        let mark = viewer.mark
        _ = await pair.a.core.adminDismiss(roomId: "pk", reason: "test")
        let exit = try await viewer.waitFor("onExitRoom", since: mark) { $0["event"] as? String == "onExitRoom" }
        #expect((exit["data"] as? [String: Any])?["code"] as? Int == -1011, "\(exit)")
        #expect(await pair.b.core.engine.edgeRoomIds.isEmpty)
        #expect(await pair.b.core.engine.roomIds.isEmpty)
        await pair.close()
    }

    @Test("the connection between the nodes cut and made again: the edge's viewers see the anchor leave (Dropped) and come back")
    func reconnectBringsTheOriginsMembersBack() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let viewer = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        try await viewer.waitFor("A there") { ClusterPeerLinkTests.is($0, "onUserPublishStream", user: "A") }
        let mark = viewer.mark
        pair.network.cut("a", "b")
        let left = try await viewer.waitFor("A leaves", since: mark) { ClusterPeerLinkTests.is($0, "onUserLeave", user: "A") }
        #expect((left["data"] as? [String: Any])?["reason"] as? Int == 1, "Dropped: \(left)")
        // b dials again (it serves a room of a's).
        let leftAt = try #require(viewer.events(since: mark).first { $0.name == "onUserLeave" }?.index)
        try await viewer.waitFor("A back", since: leftAt, timeout: .seconds(10)) { ClusterPeerLinkTests.is($0, "onUserPublishStream", user: "A") }
        #expect(
            ClusterPeerLinkTests.mirrorEvents(viewer, since: mark) == ["onUserUnpublishStream", "onUserLeave", "onUserJoined", "onUserPublishStream"])
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("switchRole to anchor on the edge answers 4032 with the room's node, and the role stays")
    func switchRoleOnTheEdgeNamesTheRoomsNode() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        let viewer = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: true)
        let mark = viewer.mark
        let answer = try await viewer.request("switchRole", ["roomId": "pk", "role": "anchor"])
        let error = try #require(answer["error"] as? [String: Any], "\(answer)")
        #expect(error["code"] as? Int == 4032)
        let data = error["data"] as? [String: Any]
        #expect(data?["controlURL"] as? String == pair.a.address.controlURL && data?["nodeId"] as? String == "a", "\(error)")
        let event = try await viewer.waitFor("onSwitchRole", since: mark) { $0["event"] as? String == "onSwitchRole" }
        #expect((event["data"] as? [String: Any])?["errorCode"] as? Int == 4032)
        #expect((event["data"] as? [String: Any])?["role"] as? String == "audience")
        // Switching to audience (already) is the engine's, as on one node.
        let stay = try await viewer.request("switchRole", ["roomId": "pk", "role": "audience"])
        #expect(stay["error"] == nil, "\(stay)")
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("past cluster.edgeAfterAudience the room's node sends further audience joins to another node (4030); anchors stay")
    func audienceSpillsToEdges() async throws {
        let pair = await ClusterPair(edges: true, edgeAfterAudience: 1)
        _ = try await Self.origin(pair)
        let first = try await ClusterPair.join(pair.a, room: "pk", user: "v1", role: "audience", visible: false)
        let second = await CoreClient(pair.a.core)
        let answer = try await second.request(
            "joinRoom", ["roomId": "pk", "userId": "v2", "role": "audience", "visible": false, "token": ClusterPair.token(room: "pk", user: "v2")])
        let error = try #require(answer["error"] as? [String: Any], "\(answer)")
        #expect(error["code"] as? Int == 4030)
        #expect((error["data"] as? [String: Any])?["nodeId"] as? String == "b", "\(error)")
        // Followed there, the viewer is served by b as an edge.
        let moved = try await ClusterPair.join(pair.b, room: "pk", user: "v2", role: "audience", visible: false)
        #expect(await pair.b.core.engine.edgeOrigin(of: "pk")?.node == "a")
        // A co-host still joins the room's node.
        _ = try await ClusterPair.join(pair.a, room: "pk", user: "B")
        #expect(pair.a.membership.status?.redirects == 1)
        _ = (first, moved)
        await pair.close()
    }

    @Test("the node a spilled viewer goes to is the same for the same user, spread evenly, and moves only its share when a node goes")
    func rendezvousSpreadsAndStays() {
        let nodes = ["relay-1", "relay-2", "relay-3", "relay-4"]
        func pick(_ user: String, among candidates: [String]) -> String {
            candidates.max { RelayCore.rendezvous(user, $0) < RelayCore.rendezvous(user, $1) }!
        }
        let users = (0..<4000).map { "viewer-\($0)" }
        var counts: [String: Int] = [:]
        for user in users { counts[pick(user, among: nodes), default: 0] += 1 }
        #expect(counts.values.allSatisfy { (800...1200).contains($0) }, "\(counts)")
        #expect(users.allSatisfy { pick($0, among: nodes) == pick($0, among: nodes.reversed()) }, "the order of the nodes does not matter")
        let remaining = Array(nodes.dropLast())
        let moved = users.filter { pick($0, among: nodes) != pick($0, among: remaining) }
        #expect(moved.allSatisfy { pick($0, among: nodes) == "relay-4" }, "only relay-4's users move")
    }
}

extension ClusterEdgeTests {
    @Test("a node that is an edge of a room still links its anchor with that room's anchor on the room's node")
    func linkIntoARoomThisNodeIsAnEdgeOf() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        _ = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        let anchorB = try await ClusterPair.anchor(pair.b, room: "r2", user: "B", ssrcBase: 2000)
        let answer = try await anchorB.request("connectOtherRoom", ["roomId": "pk", "userId": "A", "localRoomId": "r2"])
        #expect(answer["error"] == nil, "\(answer)")
        let event = try await anchorB.waitFor("onConnectOtherRoom") { $0["event"] as? String == "onConnectOtherRoom" }
        #expect((event["data"] as? [String: Any])?["errorCode"] as? Int == 0, "\(event)")
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("audience joins on a node already serving the room as an edge need no database")
    func edgeJoinsNeedNoDatabase() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        _ = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        pair.store.fail(true)
        let second = try await ClusterPair.join(pair.b, room: "pk", user: "v2", role: "audience", visible: false)
        try await second.waitFor("A's stream") { ClusterPeerLinkTests.is($0, "onUserPublishStream", user: "A") }
        pair.store.fail(false)
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("room messages cross between the room's node and its edge, both ways")
    func roomMessagesCrossBothWays() async throws {
        let pair = await ClusterPair(edges: true)
        let anchor = try await Self.origin(pair)
        let viewer = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        let (anchorMark, viewerMark) = (anchor.mark, viewer.mark)
        _ = try await anchor.request("sendRoomMessage", ["roomId": "pk", "message": "round 2"])
        let heard = try await viewer.waitFor("the anchor's message", since: viewerMark) { $0["event"] as? String == "onRoomMessageReceived" }
        #expect((heard["data"] as? [String: Any])?["message"] as? String == "round 2" && (heard["data"] as? [String: Any])?["userId"] as? String == "A")
        _ = try await viewer.request("sendRoomMessage", ["roomId": "pk", "message": "gg"])
        let back = try await anchor.waitFor("the viewer's message", since: anchorMark) { $0["event"] as? String == "onRoomMessageReceived" }
        #expect((back["data"] as? [String: Any])?["userId"] as? String == "v1", "\(back)")
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("the room's node lists in its admin view the viewers its edges serve, each with the node that serves it")
    func adminViewListsEveryNodesViewers() async throws {
        let pair = await ClusterPair(edges: true)
        _ = try await Self.origin(pair)
        _ = try await ClusterPair.join(pair.a, room: "pk", user: "va", role: "audience", visible: false)
        _ = try await ClusterPair.join(pair.b, room: "pk", user: "shy", role: "audience", visible: false)
        _ = try await ClusterPair.join(pair.b, room: "pk", user: "guest", role: "audience", visible: true)
        // The visible guest reaches the room's node a moment after its join.
        var users: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while users.count < 4, ContinuousClock.now < deadline {
            let answer = await pair.a.core.adminRoom("pk")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            users = try #require(json["users"] as? [[String: Any]], "\(json)")
            if users.count < 4 { try await Task.sleep(for: .milliseconds(20)) }
        }
        let byId = Dictionary(uniqueKeysWithValues: users.map { ($0["userId"] as? String ?? "", $0) })
        #expect(Set(byId.keys) == ["A", "va", "shy", "guest"], "\(users)")
        #expect(byId["A"]?["nodeId"] == nil && byId["va"]?["nodeId"] == nil)
        #expect(byId["shy"]?["nodeId"] as? String == "b" && byId["guest"]?["nodeId"] as? String == "b")
        #expect(byId["guest"]?["visible"] as? Bool == true)
        // The edge lists the room's anchor as the origin's.
        let onEdge = await pair.b.core.adminRoom("pk")
        let edgeJSON = try #require(try JSONSerialization.jsonObject(with: Data(onEdge.body)) as? [String: Any])
        let edgeUsers = (edgeJSON["users"] as? [[String: Any]] ?? []).map { ($0["userId"] as? String ?? "", $0["nodeId"] as? String) }
        #expect(edgeUsers.contains { $0 == ("A", "a") }, "\(edgeUsers)")
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("the placement route answers an audience placement past edgeAfterAudience with the viewer's edge, asked of any node")
    func audiencePlacementNamesTheEdge() async throws {
        let pair = await ClusterPair(edges: true, edgeAfterAudience: 1)
        _ = try await Self.origin(pair)
        func placement(asking node: ClusterPair.Node, viewer: String?) async throws -> [String: Any] {
            let answer = await node.core.adminPlacement("pk", controlURL: "", viewer: viewer)
            return try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        }
        // Under the limit every viewer joins the room's node.
        #expect(try await placement(asking: pair.b, viewer: "v1")["nodeId"] as? String == "a")
        _ = try await ClusterPair.join(pair.a, room: "pk", user: "v1", role: "audience", visible: false)
        for asked in [pair.a, pair.b] {
            let answer = try await placement(asking: asked, viewer: "v2")
            #expect(answer["nodeId"] as? String == "b" && answer["roomNodeId"] as? String == "a", "\(answer)")
            #expect(answer["controlURL"] as? String == pair.b.address.controlURL)
            // Without a viewer the answer is the room's node, as before.
            let plain = try await placement(asking: asked, viewer: nil)
            #expect(plain["nodeId"] as? String == "a" && plain["roomNodeId"] == nil, "\(plain)")
        }
        await pair.close()
    }
}

extension ClusterEdgeTests {
    @Test("the room's node shutting down: viewers on the edge hear onExitRoom (server shutdown) with its members, not after the lease")
    func originShutdownEndsTheEdgeRoom() async throws {
        let pair = await ClusterPair(edges: true)
        let anchor = try await Self.origin(pair)
        let viewer = try await ClusterPair.join(pair.b, room: "pk", user: "v1", role: "audience", visible: false)
        let (anchorMark, viewerMark) = (anchor.mark, viewer.mark)
        await pair.a.core.drain()
        let heard = try await viewer.waitFor("onExitRoom", since: viewerMark) { $0["event"] as? String == "onExitRoom" }
        let own = try await anchor.waitFor("the anchor's onExitRoom", since: anchorMark) { $0["event"] as? String == "onExitRoom" }
        for exit in [heard, own] {
            let data = exit["data"] as? [String: Any]
            #expect(data?["reason"] as? Int == 4 && data?["code"] as? Int == -32002, "\(exit)")
        }
        #expect(await pair.b.core.engine.edgeRoomIds.isEmpty)
        await pair.close()
    }
}
