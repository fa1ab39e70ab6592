import Cluster

/// What ``PeerConnections`` asks ``ClusterPeers`` to do, in order.
enum PeerAction: Sendable, Equatable {
    /// Dial `node` (a request waits for it): report the connection with
    /// ``PeerConnections/opened(dialedTo:at:)``, or the failure with ``PeerConnections/dialFailed(_:at:)``.
    case dial(ClusterNode, attempt: UInt64)
    /// Dial `node` again after its connection was lost, if this node still forwards into rooms
    /// there; otherwise report ``PeerConnections/unwanted(_:at:)``.
    case redial(ClusterNode, attempt: UInt64)
    /// Give up dial attempt `attempt` (it took too long).
    case cancelDial(attempt: UInt64)
    /// The connection's peer is known: queue its messages for that node, open this node's end
    /// of the media pipe and send hello. Report a failure with ``PeerConnections/failed(_:why:at:)``.
    case greet(generation: UInt64, node: String)
    /// Both hellos are through: let messages other than hello and ping go, and tell the relay
    /// core, which connects the pipe and sends every mirror again. Report
    /// ``PeerConnections/established(_:at:)``, or a failure.
    case establish(generation: UInt64, node: String, hello: PeerHello)
    case ping(generation: UInt64)
    /// Close the connection (it is already forgotten; a ``lost(generation:node:wasReady:)`` follows
    /// when its peer was known).
    case close(generation: UInt64, reason: String)
    /// The connection to `node` ended: its queue goes, and the relay core hears it.
    case lost(generation: UInt64, node: String, wasReady: Bool)
    /// `node` stayed unreachable for the lease, counted from its last word.
    case gone(node: String)
    /// A request waiting for a ready connection may go (`ready`) or fails.
    case resolveWaiter(UInt64, ready: Bool)
    /// A request sent on a connection that ended, or unanswered in time, fails.
    case failRequest(Int)
}
