/// A cluster node's membership figures. OpenAPI schema `ClusterStats`.
public struct AdminClusterStats: Sendable, Codable, Hashable {
    public var nodeId: String
    /// The node holds a live lease and serves rooms.
    public var serving: Bool
    /// The epoch of the lease held; 0 without one.
    public var leaseEpoch: Int64
    /// Rooms placed on this node under its lease.
    public var rooms: Int
    public var leaseLosses: Int
    public var renewalFailures: Int
    /// Joins answered 4030.
    public var redirects: Int
    /// Nodes this node has a ready node-to-node connection with.
    public var peers: [String]
    /// Ready node-to-node connections lost.
    public var peerLosses: Int
    /// Rooms this node serves as an edge of the node that holds them.
    public var edgeRooms: Int
    /// Edges following the rooms this node holds (one per room and edge node).
    public var edges: Int

    /// Creates the value from its fields.
    public init(
        nodeId: String, serving: Bool, leaseEpoch: Int64, rooms: Int, leaseLosses: Int, renewalFailures: Int, redirects: Int, peers: [String], peerLosses: Int,
        edgeRooms: Int = 0, edges: Int = 0
    ) {
        self.edgeRooms = edgeRooms
        self.edges = edges
        self.nodeId = nodeId
        self.serving = serving
        self.leaseEpoch = leaseEpoch
        self.rooms = rooms
        self.leaseLosses = leaseLosses
        self.renewalFailures = renewalFailures
        self.redirects = redirects
        self.peers = peers
        self.peerLosses = peerLosses
    }
}
