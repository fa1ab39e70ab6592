/// Parameters of `setRemoteUserPriority`: how this subscriber ranks one publisher's video when
/// its downlink cannot carry everything.
public struct SetRemoteUserPriorityParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var priority: RemoteUserPriority

    public init(roomId: String, userId: String, priority: RemoteUserPriority) {
        self.roomId = roomId
        self.userId = userId
        self.priority = priority
    }
}
