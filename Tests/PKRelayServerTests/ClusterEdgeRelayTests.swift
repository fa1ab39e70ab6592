import Foundation
import MediaPlane
import PKRelayClient
import PKRelayServer
import PostgresTestSupport
import Protocol
import SecureTransport
import Testing

/// One room's audience on two relays (cluster.edges): the room held on node a, viewers joined
/// on node b served there as its edge, media crossing the SRTP pipe once per track.
@Suite(
    "Edges across cluster relays", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL is not installed: cluster edge tests skipped"))
struct ClusterEdgeRelayTests {
    static var appeared: [(ReceivedEvent) -> Bool] {
        [
            { $0.userJoined.map { $0.userId == "A" && $0.forwardedFrom == nil } ?? false },
            { $0.userPublishStream.map { $0.userId == "A" && $0.streamIndex == .main } ?? false },
        ]
    }

    @Test("viewers on an edge node get the anchor's media from the room's node, each track crossing once for all of them")
    func edgeViewersGetTheMedia() async throws {
        try await ClusterForwardTests.withTwoNodes(edges: true) { relayA, relayB in
            let anchor = try await TestPublisher.start(
                relayA, room: "pk", user: "A", profile: ClusterForwardTests.profile, videoSSRC: 0xED6E_0001, audioSSRC: 0xED6E_0002)
            try anchor.sendFrame(keyframe: true)
            let onOrigin = try await Viewer.join(relayA, room: "pk", user: "va")
            var viewers = [onOrigin]
            for name in ["v1", "v2", "v3"] { viewers.append(try await Viewer.join(relayB, room: "pk", user: name)) }
            var ssrcs: [TrackSSRCs] = []
            for viewer in viewers {
                try await ForwardingHelpers.waitForSequence(viewer.client, from: 0, "\(viewer.name): A is there", Self.appeared)
                ssrcs.append(try await viewer.subscription(of: "A", after: 0))
            }
            // The three on b joined there: nothing redirected them. b serves the room as an edge;
            // a has one edge following it.
            #expect(try await relayB.metric("pkrelay_cluster_redirects_total") == 0)
            let edgeRooms = (try await relayA.metric("pkrelay_cluster_edge_rooms"), try await relayB.metric("pkrelay_cluster_edge_rooms"))
            let edges = (try await relayA.metric("pkrelay_cluster_edges"), try await relayB.metric("pkrelay_cluster_edges"))
            #expect(edgeRooms == (0, 1) && edges == (1, 0), "edge rooms \(edgeRooms), edges \(edges)")

            try await ClusterForwardTests.warmUp(anchor, zip(viewers, ssrcs).map { ($0, $1.video) })
            let counts = zip(viewers, ssrcs).map { $0.received($1.video).count }
            let inOnB = try await relayB.metric("pkrelay_packets_in_total")
            let videoStart = anchor.sentVideo.count
            try await anchor.sendFrames(30, keyframes: [0, 20])
            let sentVideo = Array(anchor.sentVideo[videoStart...])
            for ((viewer, tracks), count) in zip(zip(viewers, ssrcs), counts) {
                try await viewer.endpoint.waitForRTP(timeout: .seconds(5), "\(viewer.name): A's last packets") { packets in
                    packets.contains { $0.ssrc == tracks.video && $0.payload == sentVideo.last!.payload }
                }
                let video = Array(viewer.received(tracks.video).dropFirst(count))
                ForwardingHelpers.checkRun(video, sent: sentVideo, video: true, "\(viewer.name) video")
                #expect(viewer.endpoint.counters.authenticationFailures == 0)
            }
            // b took one copy of the run for its three viewers (plus audio and RTCP), not three.
            let run = UInt64(anchor.sentVideo.count + anchor.sentAudio.count) - UInt64(videoStart)
            let crossed = try await relayB.waitForMetric("pkrelay_packets_in_total") { $0 >= inOnB + UInt64(sentVideo.count) } - inOnB
            #expect(crossed < 2 * run, "b took \(crossed) packets for a run of about \(run): one copy per edge, not per viewer")

            // A leaves: every viewer, on either node, hears the same.
            let marks = [await viewers[0].mark(), await viewers[1].mark()]
            try await anchor.client.call("leaveRoom", RoomParams(roomId: "pk"))
            for (viewer, mark) in zip(viewers.prefix(2), marks) {
                let events = try await ForwardingHelpers.waitForSequence(viewer.client, from: mark, "\(viewer.name): A leaves", ForwardingHelpers.vanished("A"))
                #expect(events[0].userUnpublishStream?.reason == .clientDisconnected && events[1].userLeave?.reason == .quit, "\(viewer.name)")
            }
            for viewer in viewers { await viewer.close() }
            anchor.endpoint.close()
            await anchor.client.close()
        }
    }
}

extension ClusterEdgeRelayTests {
    /// Node b in process, on a 3 s lease with cluster.edges on.
    static func shortLeaseEdge(_ database: PostgresTestServer) -> (inout RelayConfiguration) -> Void {
        { configuration in
            ClusterForwardTests.shortLeaseNode(database)(&configuration)
            configuration.cluster.edges = true
        }
    }

    @Test(
        "the room's node killed (SIGKILL) or hung (SIGSTOP): viewers on the edge see its members leave (Dropped), then onExitRoom -1011 after the lease",
        arguments: [SIGKILL, SIGSTOP])
    func originLost(signal: Int32) async throws {
        try await PostgresTestServer.with { database in
            try await ClusterRelayTests.withNodeProcess(on: database, edges: true) { process, url in
                try await TestRelay.with(Self.shortLeaseEdge(database)) { relayB in
                    try await ClusterForwardTests.waitUntilServing(relayB)
                    let anchor = try await ClusterRelayTests.join(url: url, room: "pk", user: "A")
                    let viewer = try await Viewer.join(relayB, room: "pk", user: "v")
                    try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: 0, "v: A there", [{ $0.userJoined.map { $0.userId == "A" && $0.forwardedFrom == nil } ?? false }])
                    let mark = await viewer.mark()
                    let lostAt = ContinuousClock.now
                    kill(process.processIdentifier, signal)
                    let left = try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: mark, "v: A leaves", timeout: .seconds(10), [{ $0.userLeave?.userId == "A" }])
                    #expect(left[0].userLeave?.reason == .dropped, "\(left)")
                    let leftAfter = ContinuousClock.now - lostAt
                    let exit = try await ForwardingHelpers.waitForSequence(
                        viewer.client, from: mark, "v: onExitRoom", timeout: .seconds(10), [{ $0.exitRoom != nil }])
                    #expect(exit[0].exitRoom?.code == ErrorCode.roomDismissed.rawValue && exit[0].exitRoom?.roomId == "pk", "\(exit)")
                    let name = signal == SIGKILL ? "SIGKILL" : "SIGSTOP"
                    print("cluster: edge viewers of a \(name) origin: Dropped \(leftAfter), -1011 \(ContinuousClock.now - lostAt) after the signal (lease 3 s)")
                    // The viewer stays connected; the room, placed anew, can be joined again.
                    let rejoined = try await ClusterRelayTests.joinOnceMoved(relayB, room: "pk", user: "A2")
                    #expect(rejoined != nil, "the room was never placed anew")
                    await rejoined?.close()
                    await viewer.close()
                    await anchor.close()
                }
            }
        }
    }

    @Test("an edge killed (SIGKILL) or hung (SIGSTOP): the room's members see its visible viewers leave (Dropped)", arguments: [SIGKILL, SIGSTOP])
    func edgeLost(signal: Int32) async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.shortLeaseEdge(database)) { relayB in
                try await ClusterForwardTests.waitUntilServing(relayB)
                let anchor = try await relayB.join(room: "pk", user: "A")
                try await ClusterRelayTests.withNodeProcess(on: database, edges: true) { process, url in
                    let guest = try await Self.joinAudience(url: url, room: "pk", user: "guest")
                    try await ForwardingHelpers.waitForSequence(
                        anchor, from: 0, "A: guest joins", timeout: .seconds(10), [{ $0.userJoined?.userId == "guest" }])
                    let mark = await anchor.eventCount
                    let killedAt = ContinuousClock.now
                    kill(process.processIdentifier, signal)
                    let left = try await ForwardingHelpers.waitForSequence(
                        anchor, from: mark, "A: guest leaves", timeout: .seconds(10), [{ $0.userLeave?.userId == "guest" }])
                    #expect(left[0].userLeave?.reason == .dropped, "\(left)")
                    let name = signal == SIGKILL ? "SIGKILL" : "SIGSTOP"
                    print("cluster: a lost edge's visible viewer left the origin's room \(ContinuousClock.now - killedAt) after \(name)")
                    #expect(try await relayB.metric("pkrelay_rooms") == 1, "the room stays on its node")
                    await guest.close()
                }
                await anchor.close()
            }
        }
    }

    /// Joins `room` at `url` as a visible audience member, retrying while the node is starting.
    static func joinAudience(url: String, room: String, user: String) async throws -> ControlClient {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            let client = try await ControlClient.connect(to: url)
            do {
                let _: JoinRoomResult = try await client.request(
                    "joinRoom", JoinRoomParams(token: TestRelay.token(room: room, user: user), roomId: room, userId: user, role: .audience, visible: true))
                return client
            } catch ControlClientError.relay(let error) where error.code == .clusterUnavailable && ContinuousClock.now < deadline {
                await client.close()
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}

extension ClusterEdgeRelayTests {
    @Test(
        "a partition between the room's node and its edge (their veth cut) shorter than the lease: both sides see the other's members leave (Dropped); healed, each is shown once again",
        .enabled(if: NetworkNamespace.isAvailable, "network namespaces need root and iproute2"))
    func partitionHeals() async throws {
        let space = try NetworkNamespace.create(index: 2)
        defer { space.destroy() }
        try await PostgresTestServer.with { database in
            // The edge, node a, in the namespace (it still reaches the database's Unix socket); the room's node, b, here.
            try await ClusterRelayTests.withNodeProcess(on: database, leaseSeconds: 20, host: space.innerAddress, namespace: space.name, edges: true) {
                _, url in
                try await TestRelay.with({ configuration in
                    ClusterRelayTests.node("b", on: database)(&configuration)
                    configuration.cluster.leaseSeconds = 20
                    configuration.controlHost = space.hostAddress
                    configuration.media.bindAddress = space.hostAddress
                }) { relayB in
                    try await ClusterForwardTests.waitUntilServing(relayB)
                    let anchor = try await relayB.join(room: "pk", user: "A")
                    let guest = try await Self.joinAudience(url: url, room: "pk", user: "guest")
                    try await ForwardingHelpers.waitForSequence(
                        anchor, from: 0, "A: guest joins", timeout: .seconds(10), [{ $0.userJoined?.userId == "guest" }])
                    try await ForwardingHelpers.waitForSequence(guest, from: 0, "guest: A there", [{ $0.userJoined?.userId == "A" }])

                    let (anchorMark, guestMark) = (await anchor.eventCount, await guest.eventCount)
                    let cutAt = ContinuousClock.now
                    try space.setLink(up: false)
                    let left = try await ForwardingHelpers.waitForSequence(
                        anchor, from: anchorMark, "A: guest leaves", timeout: .seconds(10), [{ $0.userLeave?.userId == "guest" }])
                    #expect(left[0].userLeave?.reason == .dropped)
                    let detected = ContinuousClock.now - cutAt
                    try space.setLink(up: true)
                    let healedAt = ContinuousClock.now
                    try await ForwardingHelpers.waitForSequence(
                        anchor, from: anchorMark, "A: guest back", timeout: .seconds(20),
                        [{ $0.userLeave?.userId == "guest" }, { $0.userJoined?.userId == "guest" }])
                    let healed = ContinuousClock.now - healedAt
                    let seen = try await ForwardingHelpers.waitForSequence(
                        guest, from: guestMark, "guest: A leaves, then is back", timeout: .seconds(20),
                        [{ $0.userLeave?.userId == "A" }, { $0.userJoined?.userId == "A" }])
                    #expect(seen[0].userLeave?.reason == .dropped)
                    // No duplicate: the room's node lists the guest once, served by the edge.
                    let view = try await AdminHTTPClient.send(
                        port: relayB.ports.admin, method: "GET", path: "/admin/v1/rooms/pk", token: AdminAPITests.adminToken(), body: nil)
                    let users = (view.json?["users"] as? [[String: Any]] ?? []).compactMap { $0["userId"] as? String }
                    #expect(users.sorted() == ["A", "guest"], "\(users)")
                    print("cluster: edge partition: the guest left the room's node \(detected) after the cut, back \(healed) after it healed")
                    await guest.close()
                    await anchor.close()
                }
            }
        }
    }
}
