/// A target of a forward: a room and a token minted for that room and the forwarding user's own userId, with the publish grant.
public struct ForwardTargetParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var token: String

    public init(roomId: String, token: String) {
        self.roomId = roomId
        self.token = token
    }
}
