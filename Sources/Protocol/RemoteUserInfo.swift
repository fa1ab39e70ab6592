/// A visible user already in a room when another joins.
public struct RemoteUserInfo: Sendable, Codable, Hashable {
    public var userId: String
    public var role: UserRole
    public var streams: [RemoteStreamInfo]
    /// The room the user is forwarded or linked from; absent for users who joined this room.
    public var forwardedFrom: String?

    public init(userId: String, role: UserRole, streams: [RemoteStreamInfo], forwardedFrom: String? = nil) {
        self.userId = userId
        self.role = role
        self.streams = streams
        self.forwardedFrom = forwardedFrom
    }
}
