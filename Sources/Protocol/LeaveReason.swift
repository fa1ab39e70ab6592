/// Why another user left, as seen by the rest of the room (Volcengine's numbers).
public enum LeaveReason: Int, Sendable, Codable, Hashable {
    /// The user left the room by its own request.
    case quit = 0
    /// The user's connection dropped, its token expired, or a duplicate login replaced it.
    case dropped = 1
    /// The user became invisible.
    case switchToInvisible = 2
    /// The room server removed the user.
    case kickedByAdmin = 3
}
