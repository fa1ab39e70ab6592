/// A visible user already in a room when another joins.
public struct RemoteUserInfo: Sendable, Codable, Hashable {
    public var userId: String
    public var role: UserRole
    public var streams: [RemoteStreamInfo]

    public init(userId: String, role: UserRole, streams: [RemoteStreamInfo]) {
        self.userId = userId
        self.role = role
        self.streams = streams
    }
}
