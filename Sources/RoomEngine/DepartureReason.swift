/// Why a user is no longer in a room, as the operator and the room server see it (the
/// `user.left` webhook's `reason`). Clients hear the same facts as onExitRoom and onUserLeave,
/// with the commercial APIs' numbers.
public enum DepartureReason: String, Sendable, Hashable, CaseIterable {
    /// The user called leaveRoom.
    case left
    /// The room server removed the user.
    case kicked
    /// The same userId joined the room from another connection.
    case duplicateLogin
    /// The room server dismissed the room.
    case roomDismissed
    /// The user's token expired and was not refreshed.
    case tokenExpired
    /// The user's connection closed.
    case disconnected
    /// The relay is shutting down.
    case serverShutdown
}
