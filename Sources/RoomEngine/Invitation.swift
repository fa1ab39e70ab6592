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
}
