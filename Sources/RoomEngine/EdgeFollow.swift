/// An edge node starts (or stops) serving viewers of a room whose origin is the receiver: the
/// origin replicates the room's visible members to it while it follows.
public struct EdgeFollow: Sendable, Hashable, Codable {
    public var node: String
    public var roomId: String
    /// The room's placement epoch the edge found.
    public var epoch: Int64

    public init(node: String, roomId: String, epoch: Int64) {
        self.node = node
        self.roomId = roomId
        self.epoch = epoch
    }
}
