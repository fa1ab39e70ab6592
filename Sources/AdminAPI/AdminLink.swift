/// A two-way PK link touching a room. OpenAPI schema `Link`.
public struct AdminLink: Sendable, Codable, Hashable {
    /// A link exists only while connected.
    public enum State: String, Sendable, Codable, Hashable {
        case connected
    }

    public var linkId: Int
    /// The caller's room.
    public var roomId: String
    /// The caller.
    public var userId: String
    public var peerRoomId: String
    public var peerUserId: String
    public var state: AdminLink.State
    /// Unix milliseconds.
    public var startedAt: Int64

    /// Creates the value from its fields.
    public init(linkId: Int, roomId: String, userId: String, peerRoomId: String, peerUserId: String, state: AdminLink.State, startedAt: Int64) {
        self.linkId = linkId
        self.roomId = roomId
        self.userId = userId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.state = state
        self.startedAt = startedAt
    }
}
