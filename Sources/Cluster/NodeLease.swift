/// A node's right to serve rooms, granted and timed by the database.
///
/// Every registration gets a new `epoch`; a room placed on a node is bound to the epoch of the
/// lease the node held then, so a node that lost its lease and registered again owns none of its
/// old rooms.
public struct NodeLease: Sendable, Hashable {
    /// The node holding the lease.
    public var nodeId: String
    /// The lease's epoch, from the cluster's one sequence.
    public var epoch: Int64
    /// When the lease runs out on the database's clock (Unix milliseconds), unless renewed.
    public var expiresAtMs: Int64

    /// Creates a lease value.
    public init(nodeId: String, epoch: Int64, expiresAtMs: Int64) {
        self.nodeId = nodeId
        self.epoch = epoch
        self.expiresAtMs = expiresAtMs
    }
}
