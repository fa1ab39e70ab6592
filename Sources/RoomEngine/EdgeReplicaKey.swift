/// A member of a room as replicated to one other node that serves the room.
struct EdgeReplicaKey: Sendable, Hashable {
    var node: String
    var roomId: String
    var userId: String
}
