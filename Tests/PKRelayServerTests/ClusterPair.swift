import Auth
import Cluster
import Foundation
import Logging
import MediaPlane
import Synchronization

@testable import PKRelayServer

/// Two relay cores as cluster nodes "a" and "b", each on a recording media plane, with their
/// real directories (``ClusterMembership``) on one scripted database and their real
/// node-to-node connections (``ClusterPeers``) joined in process: the cluster's control paths
/// end to end, without sockets, processes or PostgreSQL.
final class ClusterPair: Sendable {
    /// One node.
    final class Node: Sendable {
        let id: String
        let address: ClusterNode
        let core: RelayCore
        let media: RecordingMediaCommands
        let peers: ClusterPeers
        let membership: ClusterMembership
        let logs = CoreHarness.LogLines()
        let releases: Task<Void, Never>

        init(
            _ id: String, ports: ClosedRange<Int>, store: ScriptedPlacementStore, network: InProcessPeerNetwork, timings: PeerConnections.Timings,
            outboxCapacity: Int, edges: Bool = false, edgeAfterAudience: Int = 0
        ) async {
            self.id = id
            address = ClusterNode(id: id, controlURL: "ws://\(id).test:7700/rtc", mediaAddress: "127.0.0.1:\(ports.lowerBound)", capacity: 100)
            let lines = logs
            let logger = Logger(label: "pkrelay.\(id)") { _ in CoreHarness.CapturingHandler(lines: lines) }
            var cluster = ClusterConfiguration()
            cluster.nodeId = id
            cluster.leaseSeconds = 60
            cluster.edges = edges
            cluster.edgeAfterAudience = edgeAfterAudience
            let origin = ContinuousClock.now
            let monotonicMs: @Sendable () -> Int64 = { (ContinuousClock.now - origin).components.seconds * 1000 }
            membership = ClusterMembership(configuration: cluster, store: store, logger: logger, databaseTimeout: .milliseconds(300), monotonicMs: monotonicMs)
            membership.granted(store.register(address), sentAtMs: monotonicMs())
            media = RecordingMediaCommands(portRange: ports)
            peers = ClusterPeers(nodeId: id, logger: logger, timings: timings, dialer: network, outboxCapacity: outboxCapacity)
            var configuration = RelayConfiguration()
            configuration.allowPlainRTP = true
            configuration.cluster = cluster
            core = RelayCore(
                configuration: configuration, media: media, logger: logger, nowMs: { CoreHarness.startMs }, directory: membership, peers: peers,
                dtlsContext: CoreHarness.dtls)
            await peers.attach(core)
            network.add(peers, as: id)
            let membership = self.membership
            releases = Task { await membership.releaseEndedRooms() }
        }
    }

    let store = ScriptedPlacementStore()
    let network = InProcessPeerNetwork()
    let a: Node
    let b: Node

    /// `edges` lets both nodes serve audience joins for rooms the other holds (cluster.edges).
    init(
        timings: PeerConnections.Timings = PeerConnections.Timings(goneAfterMs: 60_000), outboxCapacity: Int = 16384, edges: Bool = false,
        edgeAfterAudience: Int = 0
    ) async {
        a = await Node(
            "a", ports: 40_000...40_999, store: store, network: network, timings: timings, outboxCapacity: outboxCapacity, edges: edges,
            edgeAfterAudience: edgeAfterAudience)
        b = await Node(
            "b", ports: 41_000...41_999, store: store, network: network, timings: timings, outboxCapacity: outboxCapacity, edges: edges,
            edgeAfterAudience: edgeAfterAudience)
    }

    /// Closes every connection and stops the nodes' background work.
    func close() async {
        for node in [a, b] {
            await node.peers.closeAll()
            node.releases.cancel()
        }
    }

    /// A client of `node` joined to `room` as `user`.
    static func join(
        _ node: Node, room: String, user: String, role: String = "anchor", visible: Bool = true, grants: TokenGrantSet? = nil
    ) async throws -> CoreClient {
        let client = await CoreClient(node.core)
        let answer = try await client.request(
            "joinRoom",
            [
                "roomId": room, "userId": user, "role": role, "visible": visible, "token": token(room: room, user: user, grants: grants),
            ])
        guard answer["error"] == nil else { throw JoinRefused(answer: "\(answer)") }
        return client
    }

    /// An anchor of `node` in `room` publishing audio and video on a plain transport.
    static func anchor(_ node: Node, room: String, user: String, ssrcBase: Int, grants: TokenGrantSet? = nil) async throws -> CoreClient {
        let client = try await join(node, room: room, user: user, grants: grants)
        let created = try await client.request("createTransport", ["srtpProfile": "none"])
        guard let transport = (created["result"] as? [String: Any])?["transportId"] as? Int else { throw JoinRefused(answer: "\(created)") }
        let published = try await client.request(
            "publishStream",
            [
                "roomId": room, "transportId": transport,
                "tracks": [
                    ["kind": "audio", "ssrc": ssrcBase + 1, "payloadType": 111, "codec": "opus", "clockRate": 48_000, "channels": 2],
                    ["kind": "video", "ssrc": ssrcBase + 2, "payloadType": 96, "codec": "VP8", "clockRate": 90_000],
                ],
            ])
        guard published["error"] == nil else { throw JoinRefused(answer: "\(published)") }
        return client
    }

    struct JoinRefused: Error, CustomStringConvertible {
        var answer: String
        var description: String { "refused: \(answer)" }
    }

    /// A token for `user` in `room`, valid for an hour of ``CoreHarness``'s clock.
    static func token(room: String, user: String, grants: TokenGrantSet? = nil) -> String {
        TokenMinter(key: .development).mint(
            TokenClaims(
                sub: user, room: room, exp: CoreHarness.startMs / 1000 + 3600, iat: CoreHarness.startMs / 1000, grants: grants))
    }
}
