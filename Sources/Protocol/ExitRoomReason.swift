/// Why the user itself is no longer in a room (TRTC's numbers, plus PKRelay's token expiry).
public enum ExitRoomReason: Int, Sendable, Codable, Hashable {
    /// The user called leaveRoom.
    case left = 0
    /// The user was removed: by the room server, or by a duplicate login (see the event's code).
    case kicked = 1
    /// The room was dismissed.
    case roomDismissed = 2
    /// The user's token expired and was not refreshed.
    case tokenExpired = 3
    /// The relay is shutting down.
    case serverShutdown = 4
}
