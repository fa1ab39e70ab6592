/// Where a room lives: its node, and the fencing epoch of this placement.
///
/// The epoch grows with every placement of any room; messages between nodes about the room carry
/// it, so a node that once held the room and lost it is refused.
public struct RoomPlacement: Sendable, Hashable {
    /// The room.
    public var roomId: String
    /// The node serving it.
    public var node: ClusterNode
    /// The fencing epoch of this placement.
    public var epoch: Int64

    /// Creates a placement value.
    public init(roomId: String, node: ClusterNode, epoch: Int64) {
        self.roomId = roomId
        self.node = node
        self.epoch = epoch
    }
}
