/// Data of `onUserJoined`: a user became visible in the room (joined visible, or turned visible).
public struct UserJoinedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var role: UserRole
    /// The room the user is forwarded or linked from; absent for users who joined this room.
    public var forwardedFrom: String?

    public init(roomId: String, userId: String, role: UserRole, forwardedFrom: String? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.role = role
        self.forwardedFrom = forwardedFrom
    }
}
