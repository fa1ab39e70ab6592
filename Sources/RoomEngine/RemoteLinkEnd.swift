/// A PK link across nodes ended on this node's side: the other node ends its half, and its
/// anchor hears onDisconnectOtherRoom with `reason`.
public struct RemoteLinkEnd: Sendable, Hashable, Codable {
    public var node: String
    /// The other node's anchor, in its own room.
    public var anchorRoomId: String
    public var anchorUserId: String
    /// This node's anchor, in its own room.
    public var peerRoomId: String
    public var peerUserId: String
    /// What the other node's anchor hears.
    public var reason: String
    /// When the link ended because of the mirror of the other node's anchor here (kicked,
    /// interrupted, room dismissed): how that mirror left. The other node then ends its half
    /// as its own side would have.
    public var endedHere: Bool

    public init(node: String, anchorRoomId: String, anchorUserId: String, peerRoomId: String, peerUserId: String, reason: String, endedHere: Bool) {
        self.node = node
        self.anchorRoomId = anchorRoomId
        self.anchorUserId = anchorUserId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.reason = reason
        self.endedHere = endedHere
    }
}
