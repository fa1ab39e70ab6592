/// Data of `onTokenWillExpire`: sent 30 s before the token of a room expires.
public struct TokenWillExpireEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var expiresAt: Int64
    public var remainingSeconds: Int64

    public init(roomId: String, expiresAt: Int64, remainingSeconds: Int64) {
        self.roomId = roomId
        self.expiresAt = expiresAt
        self.remainingSeconds = remainingSeconds
    }
}
