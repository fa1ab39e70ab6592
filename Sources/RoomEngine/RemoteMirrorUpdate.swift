public import Protocol

/// What a user's mirror in a room on another node should look like now (the source node tells
/// the target node): shown with these streams, or gone (`publications` nil) for the reasons given.
public struct RemoteMirrorUpdate: Sendable, Hashable, Codable {
    public var node: String
    /// The target room's placement epoch.
    public var epoch: Int64
    public var sourceRoomId: String
    public var targetRoomId: String
    public var userId: String
    public var role: UserRole
    /// When the target token ends (the target node ends the mirror then, as on one node).
    public var expiresAt: EngineTime
    /// The streams to show; nil removes the mirror.
    public var publications: [RemotePublication]?
    public var leaveReason: LeaveReason
    public var unpublishReason: UnpublishReason
}
