public import Protocol

/// Something that happened in the rooms, told once, in the order it happened, beside the events
/// the engine sends to sessions.
///
/// Session events say what each client must hear; domain events say what the operator and the
/// room server must hear: webhooks, info logs and metrics are derived from them and from nothing
/// else. Users forwarded or linked into a room are not users of it here: their presence is told by
/// the forward and link events.
public enum DomainEvent: Sendable, Hashable {
    /// The room came into being: its first user, or a forwarded or linked user, arrived.
    case roomCreated(roomId: String)
    /// The room server dismissed the room (its users' departures follow), giving `reason`.
    case roomDismissed(roomId: String, reason: String?)
    /// The room's last user (or forwarded or linked user) left.
    case roomEnded(roomId: String)
    /// A user joined a room. `replacedSession` is set when the same userId was in the room on
    /// another connection (a duplicate login), which left just before.
    case userJoined(roomId: String, userId: String, session: SessionID, role: UserRole, visible: Bool, replacedSession: SessionID?)
    /// A user left a room.
    case userLeft(roomId: String, userId: String, session: SessionID, reason: DepartureReason)
    /// A user switched between anchor and audience.
    case userRoleChanged(roomId: String, userId: String, role: UserRole, previousRole: UserRole)
    /// A user's stream went live in its own room.
    case streamPublished(StreamChange)
    /// A user's stream in its own room ended.
    case streamUnpublished(StreamChange)
    /// A forward target started, failed or stopped.
    case forwardStateChanged(ForwardStateChange)
    /// A two-way PK link was made.
    case linkConnected(LinkSnapshot)
    /// A PK link ended; `reason` is the one its anchors hear in onDisconnectOtherRoom, from the
    /// side that ended it.
    case linkEnded(LinkSnapshot, reason: String)
    /// An invitation reached a final state.
    case invitationEnded(InvitationOutcome)
    /// The first keyframe of a forward or link reached a subscriber in the target room.
    case firstKeyframe(FirstKeyframeWatch, elapsedMs: Int64)
}
