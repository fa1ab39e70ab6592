import Cluster

/// How ``ClusterPeers`` reaches another node: ``WebSocketPeerDialer`` in a cluster, an
/// in-process pairing in tests.
protocol PeerDialer: Sendable {
    /// Connects to `node` and runs the connection with `peers.serve(messages:write:dialed:)`
    /// until it ends; throws when no connection could be made.
    func dial(_ node: ClusterNode, into peers: ClusterPeers) async throws
}
