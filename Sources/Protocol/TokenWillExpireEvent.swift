/// Data of `onTokenWillExpire`: sent 30 s before the token of a room expires, and 30 s before
/// its publish privilege ends when the token limits that separately.
public struct TokenWillExpireEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var expiresAt: Int64
    public var remainingSeconds: Int64
    /// `publish` when only the publish privilege is about to end; absent for the whole token.
    public var privilege: String?

    public init(roomId: String, expiresAt: Int64, remainingSeconds: Int64, privilege: String? = nil) {
        self.roomId = roomId
        self.expiresAt = expiresAt
        self.remainingSeconds = remainingSeconds
        self.privilege = privilege
    }
}
