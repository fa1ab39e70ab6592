public import Protocol

/// What a visible member of a room should look like on another node that serves the same room
/// (the room's origin tells an edge about its members, an edge tells the origin about its
/// visible viewers): present with these streams, or gone (`publications` nil). Each change
/// carries the reason the sender's own members heard, so that the receiver's members hear the
/// same events.
public struct EdgeReplicaUpdate: Sendable, Hashable, Codable {
    public var node: String
    /// The room's placement epoch at its origin.
    public var epoch: Int64
    public var roomId: String
    public var userId: String
    public var role: UserRole
    /// The member's source room when it is a forwarded or linked user at the origin.
    public var forwardedFrom: String?
    /// The streams to show, their tracks on the media pipe; nil removes the member.
    public var publications: [RemotePublication]?
    public var leaveReason: LeaveReason
    public var unpublishReason: UnpublishReason

    public init(
        node: String, epoch: Int64, roomId: String, userId: String, role: UserRole, forwardedFrom: String?, publications: [RemotePublication]?,
        leaveReason: LeaveReason, unpublishReason: UnpublishReason
    ) {
        self.node = node
        self.epoch = epoch
        self.roomId = roomId
        self.userId = userId
        self.role = role
        self.forwardedFrom = forwardedFrom
        self.publications = publications
        self.leaveReason = leaveReason
        self.unpublishReason = unpublishReason
    }
}
