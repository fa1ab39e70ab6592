/// Parameters of `updateToken`.
public struct UpdateTokenParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var token: String
    public init(roomId: String, token: String) {
        self.roomId = roomId
        self.token = token
    }
}
