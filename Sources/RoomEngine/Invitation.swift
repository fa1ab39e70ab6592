import Protocol

/// A PK invitation between two anchors in different rooms.
struct Invitation: Sendable, Hashable {
    var id: String
    var caller: LinkEnd
    var callee: LinkEnd
    var payload: String?
    /// nil: no timeout.
    var expiresAt: EngineTime?
    var autoLink: Bool
    var state: InvitationState
    var endedAt: EngineTime?

    var isPending: Bool { state == .receivedByRemote || state == .sentToRemote }

    /// The domain event's view of this invitation in its present (final) state.
    func outcome(reason: String?) -> InvitationOutcome {
        InvitationOutcome(
            inviteId: id, callerRoomId: caller.roomId, callerUserId: caller.userId, calleeRoomId: callee.roomId, calleeUserId: callee.userId,
            state: state, reason: reason)
    }
}
