import Protocol
import RoomEngine

/// One JSON message on a node-to-node connection; which fields are set depends on `kind`.
struct PeerMessage: Sendable, Codable {
    var kind: PeerMessageKind
    /// Pairs a ``PeerMessageKind/verify`` with its answer.
    var id: Int?
    /// hello: the sender's node id, process instance and end of the media pipe.
    var node: String?
    var instance: String?
    var pipe: PipeOffer?
    /// verify, mirror, unmirror, mirrorEnded: the forward they concern. `epoch` is the target
    /// room's placement epoch as the source node found it; a node that does not serve the room
    /// under that epoch refuses (a stale placement never reaches a room's former node).
    var sourceRoomId: String?
    var targetRoomId: String?
    var userId: String?
    var epoch: Int64?
    /// link: the placement epoch of the caller's room (for the messages about its mirror there).
    var sourceEpoch: Int64?
    /// link, linkEnded: the anchor on the receiving node (in `targetRoomId`); the sender's anchor
    /// is `userId` in `sourceRoomId`. linkEnded: what the receiving node's anchor hears.
    var peerUserId: String?
    var reason: String?
    /// verify: the target token the forwarding user gave.
    var token: String?
    /// verified: when the target token ends; mirror: the same, passed back.
    var expiresAtMs: Int64?
    /// mirror: how the user appears.
    var role: UserRole?
    var publications: [RemotePublication]?
    /// unmirror, mirrorEnded: why the user leaves the target room.
    var leaveReason: LeaveReason?
    var unpublishReason: UnpublishReason?
    /// invite, invited, invitation: the invitation (its id named by the caller's node), and
    /// invitation's final state with `reason`.
    var inviteId: String?
    var payload: String?
    var timeoutSeconds: Int?
    var autoLink: Bool?
    var busy: Bool?
    var invitationState: InvitationState?
    /// demand: the pipe SSRC, and whether its packets are wanted.
    var ssrc: UInt32?
    var wanted: Bool?
    /// message: the event to deliver in `targetRoomId` (to `peerUserId` only, when set).
    var message: MessageReceivedEvent?
    /// verified (refused) and mirrorEnded: the forward error (12xx) with its message.
    var error: RelayError?

    init(_ kind: PeerMessageKind) {
        self.kind = kind
    }
}
