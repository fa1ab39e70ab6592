/// One room in detail (`GET /admin/v1/rooms/{roomId}`). OpenAPI schema `RoomDetail`.
public struct AdminRoomDetail: Sendable, Codable, Hashable {
    public var roomId: String
    public var users: [AdminUser]
    /// Forwards into and out of the room.
    public var forwards: [AdminForward]
    /// Links touching the room.
    public var links: [AdminLink]

    /// Creates the value from its fields.
    public init(roomId: String, users: [AdminUser], forwards: [AdminForward], links: [AdminLink]) {
        self.roomId = roomId
        self.users = users
        self.forwards = forwards
        self.links = links
    }
}
