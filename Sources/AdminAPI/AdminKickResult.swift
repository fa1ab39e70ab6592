/// The users removed and those not found. OpenAPI schema `KickResult`.
public struct AdminKickResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var kicked: [String]
    public var notFound: [String]

    /// Creates the value from its fields.
    public init(roomId: String, kicked: [String], notFound: [String]) {
        self.roomId = roomId
        self.kicked = kicked
        self.notFound = notFound
    }
}
