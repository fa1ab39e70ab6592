/// What a node's cluster membership looks like now, for the admin stats and /metrics.
struct ClusterStatus: Sendable, Equatable {
    var nodeId: String
    /// Whether the node holds a live lease and serves rooms.
    var serving: Bool
    /// The epoch of the lease held, 0 without one.
    var leaseEpoch: Int64
    /// Rooms placed on this node under its lease.
    var rooms: Int
    /// Leases lost since start (renewal refused, or not renewed in time).
    var leaseLosses: UInt64
    /// Renewals that did not reach the database or got no answer.
    var renewalFailures: UInt64
    /// Joins answered with a redirect to another node (4030).
    var redirects: UInt64
    /// Nodes this node has a ready node-to-node connection with, and such connections lost.
    var peers: [String] = []
    var peerLosses: UInt64 = 0
}
