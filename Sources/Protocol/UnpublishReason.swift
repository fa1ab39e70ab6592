/// Why a stream was unpublished (Volcengine's numbers).
public enum UnpublishReason: Int, Sendable, Codable, Hashable {
    /// The publisher called unpublishStream, switched to audience or became invisible.
    case unpublish = 0
    /// Publishing failed.
    case publishFailed = 1
    /// No media arrived for the keep-alive period (10 s by default).
    case keepLiveFailed = 2
    /// The publisher's connection closed or the user left the room.
    case clientDisconnected = 3
    /// The publisher published the same stream again; a new publication replaces this one.
    case republish = 4
    /// Anything else (room dismissed, user removed).
    case other = 5
    /// The token's publish grant expired.
    case privilegeTokenExpired = 6
}
