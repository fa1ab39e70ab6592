import Auth
import Foundation
import Testing

@testable import PKRelayServer

/// Two relay cores as cluster nodes joined by their real node-to-node connections in process
/// (``ClusterPair``): what the users of both nodes hear when the connection between the nodes
/// is lost and made again, when one node stops reading, when the database is away, and in
/// which order refusals and links are told.
@Suite("Cluster nodes joined in process", .timeLimit(.minutes(1)))
struct ClusterPeerLinkTests {
    /// Anchor A publishing in r1 on node a, forwarding into r2 on node b, where an
    /// auto-subscribing viewer watches it.
    static func forwarding(_ pair: ClusterPair) async throws -> (anchor: CoreClient, viewer: CoreClient) {
        let viewer = try await ClusterPair.join(pair.b, room: "r2", user: "viewer", role: "audience", visible: false)
        let anchor = try await ClusterPair.anchor(pair.a, room: "r1", user: "A", ssrcBase: 1000)
        let started = try await anchor.request(
            "startForwardStreamToRooms",
            [
                "roomId": "r1", "targets": [["roomId": "r2", "token": ClusterPair.token(room: "r2", user: "A")]],
            ])
        let infos = (started["result"] as? [String: Any])?["infos"] as? [[String: Any]]
        #expect(infos?.first?["state"] as? Int == 1, "\(started)")
        try await viewer.waitFor("A shown in r2") { Self.is($0, "onUserPublishStream", user: "A") }
        return (anchor, viewer)
    }

    static func `is`(_ message: [String: Any], _ event: String, user: String) -> Bool {
        message["event"] as? String == event && (message["data"] as? [String: Any])?["userId"] as? String == user
    }

    static func forwardEvent(_ message: [String: Any]) -> Int? {
        guard message["event"] as? String == "onForwardStreamEvent" else { return nil }
        return (((message["data"] as? [String: Any])?["infos"] as? [[String: Any]])?.first)?["event"] as? Int
    }

    /// A's joins, publishes and leaves in r2 as the viewer heard them since `mark`.
    static func mirrorEvents(_ viewer: CoreClient, since mark: Int) -> [String] {
        viewer.events(since: mark).filter { ($0.body["userId"] as? String) == "A" }.map(\.name)
    }

    @Test("a connection between the nodes lost and made again within the lease: Disconnected, the mirror leaves, then Connected and the mirror is shown again")
    func reconnectShowsTheMirrorAgain() async throws {
        let pair = await ClusterPair()
        let (anchor, viewer) = try await Self.forwarding(pair)
        let (anchorMark, viewerMark) = (anchor.mark, viewer.mark)

        pair.network.cut("a", "b")
        try await anchor.waitFor("Disconnected", since: anchorMark) { Self.forwardEvent($0) == 0 }
        try await viewer.waitFor("A leaves", since: viewerMark) { Self.is($0, "onUserLeave", user: "A") }
        // a dials again at once (it still forwards into r2).
        try await anchor.waitFor("Connected", since: anchorMark) { Self.forwardEvent($0) == 1 }
        let left = try #require(viewer.events(since: viewerMark).first { $0.name == "onUserLeave" }?.index)
        try await viewer.waitFor("A shown again", since: left) { Self.is($0, "onUserPublishStream", user: "A") }
        #expect(Self.mirrorEvents(viewer, since: viewerMark) == ["onUserUnpublishStream", "onUserLeave", "onUserJoined", "onUserPublishStream"])
        let leave = try #require(viewer.events(since: viewerMark).first { $0.name == "onUserLeave" })
        #expect(leave.body["reason"] as? Int == 1, "Dropped, as for a closed client connection: \(leave.body)")
        await pair.close()
    }

    @Test("a node that stops reading: the other closes the connection when its queue is full, and the nodes resynchronise instead of diverging")
    func fullQueueClosesTheConnection() async throws {
        let pair = await ClusterPair(outboxCapacity: 4)
        let (anchor, viewer) = try await Self.forwarding(pair)
        let viewerMark = viewer.mark

        // b stops reading what a sends; A pauses and resumes its forward many times, ending
        // resumed: more mirror updates than a's queue to b holds.
        let flow = pair.network.flow(from: "a", to: "b")
        flow.close()
        for _ in 0..<6 {
            try await anchor.request("pauseForwardStreamToAllRooms", ["roomId": "r1"])
            try await anchor.request("resumeForwardStreamToAllRooms", ["roomId": "r1"])
        }
        #expect(pair.a.peers.outbox.overflowCount >= 1, "the queue to b never filled")
        flow.open()

        // b reads again: the connection was closed rather than left with updates missing, so
        // the mirror b shows in the end is the one a means: A, resumed, with its streams.
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.mirrorEvents(viewer, since: viewerMark).last != "onUserPublishStream" {
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let seen = Self.mirrorEvents(viewer, since: viewerMark)
        #expect(seen.last == "onUserPublishStream", "b ended with A \(seen.last ?? "untouched") while a forwards it: \(seen)")
        #expect(seen.contains("onUserLeave"), "the nodes resynchronised through a new connection: \(seen)")
        #expect(pair.a.logs.metadata(of: "cluster peer disconnected").first?["reason"]?.contains("full") == true)
        await pair.close()
    }

    @Test("an update while the cluster's database is away keeps a target already running on another node")
    func updateDuringADatabaseOutage() async throws {
        let pair = await ClusterPair()
        let (anchor, viewer) = try await Self.forwarding(pair)
        let viewerMark = viewer.mark
        pair.store.fail(true)
        let updated = try await anchor.request(
            "updateForwardStreamToRooms",
            [
                "roomId": "r1", "targets": [["roomId": "r2", "token": ClusterPair.token(room: "r2", user: "A")]],
            ])
        let infos = (updated["result"] as? [String: Any])?["infos"] as? [[String: Any]] ?? []
        #expect(updated["error"] == nil && infos.allSatisfy { $0["state"] as? Int != 2 }, "\(updated)")
        #expect(!Self.mirrorEvents(viewer, since: viewerMark).contains("onUserLeave"), "the viewers saw the forwarder leave")
        pair.store.fail(false)
        await pair.close()
    }

    /// The response to request `id` and the events `client` got after `mark`, by position.
    static func order(_ client: CoreClient, since mark: Int, answering method: String) -> [String] {
        client.messages.dropFirst(mark).map { message in
            if let event = message["event"] as? String { return event }
            return message["error"] != nil ? "error" : "result"
        }
    }

    @Test(
        "a connectOtherRoom refused across nodes answers first, then tells the caller with onConnectOtherRoom",
        arguments: ["caller without forward", "peer without forward", "peer absent"])
    func refusedLinkAnswersFirst(_ refusal: String) async throws {
        let pair = await ClusterPair()
        let callerGrants = refusal == "caller without forward" ? TokenGrantSet(forward: false) : nil
        let peerGrants = refusal == "peer without forward" ? TokenGrantSet(forward: false) : nil
        let caller = try await ClusterPair.anchor(pair.a, room: "r1", user: "A", ssrcBase: 1000, grants: callerGrants)
        let peer = try await ClusterPair.anchor(pair.b, room: "r2", user: "B", ssrcBase: 2000, grants: peerGrants)
        let mark = caller.mark
        let answer = try await caller.request("connectOtherRoom", ["roomId": "r2", "userId": refusal == "peer absent" ? "nobody" : "B"])
        let code = (answer["error"] as? [String: Any])?["code"] as? Int
        #expect(code == (refusal == "peer absent" ? -102048 : 4015), "\(answer)")
        let event = try await caller.waitFor("onConnectOtherRoom", since: mark) { $0["event"] as? String == "onConnectOtherRoom" }
        #expect((event["data"] as? [String: Any])?["errorCode"] as? Int == code)
        #expect(Self.order(caller, since: mark, answering: "connectOtherRoom") == ["error", "onConnectOtherRoom"])
        #expect(peer.eventNames.allSatisfy { $0 != "onConnectOtherRoom" }, "the peer hears nothing")
        await pair.close()
    }

    @Test("a link across nodes: the caller hears answer, peer, onConnectOtherRoom as on one node; the peer its event first")
    func linkOrderAcrossNodes() async throws {
        let pair = await ClusterPair()
        let caller = try await ClusterPair.anchor(pair.a, room: "r1", user: "A", ssrcBase: 1000)
        let peer = try await ClusterPair.anchor(pair.b, room: "r2", user: "B", ssrcBase: 2000)
        let (callerMark, peerMark) = (caller.mark, peer.mark)
        let answer = try await caller.request("connectOtherRoom", ["roomId": "r2", "userId": "B"])
        #expect(answer["error"] == nil, "\(answer)")
        try await caller.waitFor("A: onConnectOtherRoom", since: callerMark) { $0["event"] as? String == "onConnectOtherRoom" }
        try await peer.waitFor("B: A appears", since: peerMark) { Self.is($0, "onUserPublishStream", user: "A") }
        // PROTOCOL.md (connectOtherRoom): the answer first, the peer's mirror, then the event.
        #expect(
            Self.order(caller, since: callerMark, answering: "connectOtherRoom") == [
                "result", "onUserJoined", "onUserPublishStream", "onConnectOtherRoom",
            ])
        // The peer's node holds its half, and the peer hears so, before the caller's node shows
        // the caller in the peer's room (docs/CLUSTER.md, "Across nodes").
        #expect(peer.events(since: peerMark).map(\.name) == ["onConnectOtherRoom", "onUserJoined", "onUserPublishStream"])
        await pair.close()
    }
}
