/// Result of `joinRoom`.
public struct JoinRoomResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var role: UserRole
    public var visible: Bool
    /// The visible users already in the room, with their published streams.
    public var users: [RemoteUserInfo]
    /// Unix seconds when the token expires.
    public var tokenExpiresAt: Int64

    public init(roomId: String, userId: String, role: UserRole, visible: Bool, users: [RemoteUserInfo], tokenExpiresAt: Int64) {
        self.roomId = roomId
        self.userId = userId
        self.role = role
        self.visible = visible
        self.users = users
        self.tokenExpiresAt = tokenExpiresAt
    }
}
