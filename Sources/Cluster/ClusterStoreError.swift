/// Why the cluster store refused a change.
public enum ClusterStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds a live lease under this node id (two nodes configured with one id,
    /// or a restart before the old lease ran out): serving now could put a room on two nodes.
    case nodeIdInUse(nodeId: String, untilMs: Int64)
    /// The node's lease ran out or was replaced: it must stop serving its rooms.
    case leaseLost(nodeId: String)
    /// No node holds a live lease, so a room cannot be placed.
    case noLiveNode
    /// Placement lost the race too many times in a row (many nodes placing one room at once).
    case placementContended(roomId: String)
    /// Registration found the node id's row live, then gone, too many times in a row.
    case registrationContended(nodeId: String)
    /// An id that breaks the id rule.
    case invalidIdentifier(String)

    public var description: String {
        switch self {
        case .nodeIdInUse(let nodeId, let untilMs): "node id \(nodeId) holds a live lease until \(untilMs) ms (database clock); another process serves under it"
        case .leaseLost(let nodeId): "node \(nodeId) lost its lease and must stop serving"
        case .noLiveNode: "no node holds a live lease"
        case .placementContended(let roomId): "room \(roomId) could not be placed: its placement kept changing"
        case .registrationContended(let nodeId): "node \(nodeId) could not register: the row under its id kept changing"
        case .invalidIdentifier(let problem): "invalid id: \(problem)"
        }
    }
}
