import Cluster
import RoomEngine

/// The node-to-node connections as the relay core uses them: requests answered by another
/// node, and notices sent one way. ``ClusterPeers`` carries them over WebSocket in a cluster;
/// a single node has none.
protocol PeerLink: Sendable {
    /// Asks `node` (connecting to it when needed) and waits for its answer; nil when it cannot
    /// be reached or does not answer in time.
    func request(_ request: PeerRequest, to node: ClusterNode) async -> PeerReply?
    /// Sends a notice to `notice.node` over its ready connection. Without one the notice is
    /// dropped: the nodes resynchronise when they reconnect. A notice that cannot be queued
    /// closes the connection, so that they do.
    func notify(_ notice: NodeNotice)
    /// A node this node has connected to before, by id: asked again without the directory.
    func knownNode(_ id: String) async -> ClusterNode?
    /// The peers with a ready connection, sorted, and the ready connections lost since start.
    var connectedPeers: (peers: [String], losses: UInt64) { get }
    /// Closes every connection (shutdown), after what is queued is written.
    func closeAll() async
}
