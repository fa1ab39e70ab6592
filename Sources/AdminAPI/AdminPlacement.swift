/// The node that serves a room (`POST /admin/v1/rooms/{roomId}/placement`). OpenAPI schema `Placement`.
public struct AdminPlacement: Sendable, Codable, Hashable {
    public var roomId: String
    /// The node's id; empty for a single relay.
    public var nodeId: String
    /// The control WebSocket URL clients connect to for this room.
    public var controlURL: String
    /// The placement's fencing epoch; it grows with every placement.
    public var epoch: Int64
    /// When the answer is an edge of the room (an audience placement past the room's
    /// `cluster.edgeAfterAudience`): the room's own node. `epoch` is the room's placement there.
    public var roomNodeId: String?

    /// Creates the value from its fields.
    public init(roomId: String, nodeId: String, controlURL: String, epoch: Int64, roomNodeId: String? = nil) {
        self.roomNodeId = roomNodeId
        self.roomId = roomId
        self.nodeId = nodeId
        self.controlURL = controlURL
        self.epoch = epoch
    }
}
