/// Data of `onUserJoined`: a user became visible in the room (joined visible, or turned visible).
public struct UserJoinedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var role: UserRole

    public init(roomId: String, userId: String, role: UserRole) {
        self.roomId = roomId
        self.userId = userId
        self.role = role
    }
}
