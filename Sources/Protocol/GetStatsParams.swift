/// Parameters of `getStats`: optionally narrow the tracks to one room.
public struct GetStatsParams: Sendable, Codable, Hashable {
    public var roomId: String?
    public init(roomId: String? = nil) { self.roomId = roomId }
}
