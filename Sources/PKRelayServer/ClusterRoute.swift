import Cluster

/// Where a join for a room goes, in a cluster.
enum ClusterRoute: Sendable, Equatable {
    /// This node serves the room (it did already, or just claimed it).
    case local
    /// Another node serves it: the client is redirected there.
    case elsewhere(RoomPlacement)
    /// This node cannot decide now (no lease, or the database unreachable); the sentence says why.
    case unavailable(String)
}
