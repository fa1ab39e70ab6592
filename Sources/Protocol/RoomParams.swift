/// Parameters of requests that name only a room (`leaveRoom`, `getStats`).
public struct RoomParams: Sendable, Codable, Hashable {
    public var roomId: String
    public init(roomId: String) { self.roomId = roomId }
}
