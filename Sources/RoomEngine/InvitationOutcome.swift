public import Protocol

/// An invitation that reached a final state (accepted, refused, canceled or failed).
public struct InvitationOutcome: Sendable, Hashable {
    public var inviteId: String
    public var callerRoomId: String
    public var callerUserId: String
    public var calleeRoomId: String
    public var calleeUserId: String
    public var state: InvitationState
    /// Why it failed or was refused (`timeout`, `peerLeft`, the callee's reason...).
    public var reason: String?

    public init(
        inviteId: String, callerRoomId: String, callerUserId: String, calleeRoomId: String, calleeUserId: String, state: InvitationState, reason: String?
    ) {
        self.inviteId = inviteId
        self.callerRoomId = callerRoomId
        self.callerUserId = callerUserId
        self.calleeRoomId = calleeRoomId
        self.calleeUserId = calleeUserId
        self.state = state
        self.reason = reason
    }
}
