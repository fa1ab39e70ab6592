/// One room with its counts. OpenAPI schema `RoomSummary`.
public struct AdminRoomSummary: Sendable, Codable, Hashable {
    public var roomId: String
    /// Users who joined the room.
    public var users: Int
    /// Users forwarded or linked in from other rooms.
    public var forwardedUsers: Int
    public var visibleUsers: Int
    /// Streams published by users who joined the room.
    public var streams: Int
    /// Forward targets from this room.
    public var forwardsOut: Int
    /// Forward targets into this room.
    public var forwardsIn: Int
    public var links: Int

    /// Creates the value from its fields.
    public init(roomId: String, users: Int, forwardedUsers: Int, visibleUsers: Int, streams: Int, forwardsOut: Int, forwardsIn: Int, links: Int) {
        self.roomId = roomId
        self.users = users
        self.forwardedUsers = forwardedUsers
        self.visibleUsers = visibleUsers
        self.streams = streams
        self.forwardsOut = forwardsOut
        self.forwardsIn = forwardsIn
        self.links = links
    }
}
