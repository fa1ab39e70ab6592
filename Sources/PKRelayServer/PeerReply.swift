import AdminAPI
import Protocol

/// The answer to a ``PeerRequest``.
enum PeerReply: Sendable, Hashable, Codable {
    /// The forward may go ahead; the target token ends at `expiresAtMs` (Unix milliseconds).
    case verified(expiresAtMs: Int64)
    /// The peer's node holds its half of the link.
    case linked
    /// The invitation was taken; `busy` when it was refused at once because the callee is in
    /// a link (rooms.autoRejectBusyInvitations).
    case invited(busy: Bool)
    /// The answer to ``PeerRequest/sync``.
    case synced
    /// The answer to ``PeerRequest/roomUsers(_:)``: the receiver's own users of the room.
    case roomUsers([AdminUser])
    /// The answer to ``PeerRequest/audienceNode(roomId:userId:)``: the edge the viewer is sent
    /// to, or nil to join the room's node.
    case audienceNode(String?)
    /// The request was refused, with the error the caller hears.
    case refused(RelayError)
}
