/// Every room on the relay (`GET /admin/v1/rooms`). OpenAPI schema `RoomList`.
public struct AdminRoomList: Sendable, Codable, Hashable {
    /// The rooms.
    public var rooms: [AdminRoomSummary]

    /// Creates the value from its fields.
    public init(rooms: [AdminRoomSummary]) {
        self.rooms = rooms
    }
}
