import Protocol

/// A question one node asks another about a room the other serves; answered by a ``PeerReply``.
enum PeerRequest: Sendable, Hashable, Codable {
    /// May this user forward into this room here? Answered `verified` or `refused`.
    case verify(ForwardVerification)
    /// Link the sender's anchor with an anchor here. Answered `linked` or `refused`.
    case link(LinkProposal)
    /// An invitation from the sender's anchor to an anchor here. Answered `invited` or `refused`.
    case invite(InvitationProposal)
    /// Nothing but its answer, `synced`: what the receiver sent before answering (the members
    /// of a room an edge just followed) has arrived once the answer has.
    case sync
    /// The users of a room this node holds that the receiver, one of its edges, serves itself
    /// (the admin API's view of the room). Answered `roomUsers`.
    case roomUsers(String)
    /// Where an audience member of a room the receiver holds joins now (the admin API's audience
    /// placement asked of another node). Answered `audienceNode`.
    case audienceNode(roomId: String, userId: String)
}

/// A forward into a room on the receiving node, to be verified there: the target token is
/// checked for the room and the user, and the room must be able to show the user. `epoch` is
/// the room's placement epoch as the sender found it: a node that does not serve the room
/// under that epoch refuses, so a stale placement never reaches a room's former node.
struct ForwardVerification: Sendable, Hashable, Codable {
    var sourceRoomId: String
    var targetRoomId: String
    var userId: String
    var token: String
    var epoch: Int64
}

/// A PK link from the sender's anchor (`callerUserId` in `callerRoomId`, placed under
/// `callerEpoch` on the sender) to an anchor of the receiver (`peerUserId` in `peerRoomId`,
/// which the sender found under `epoch`).
struct LinkProposal: Sendable, Hashable, Codable {
    var callerRoomId: String
    var callerUserId: String
    var peerRoomId: String
    var peerUserId: String
    var epoch: Int64
    var callerEpoch: Int64
}

/// An invitation, named by the sender, from its anchor to an anchor of the receiver; the
/// epochs as in ``LinkProposal``.
struct InvitationProposal: Sendable, Hashable, Codable {
    var inviteId: String
    var callerRoomId: String
    var callerUserId: String
    var calleeRoomId: String
    var calleeUserId: String
    var payload: String?
    var timeoutSeconds: Int
    var autoLink: Bool
    var epoch: Int64
    var callerEpoch: Int64
}
