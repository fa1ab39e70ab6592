/// A read-only view of one forward target (a user's streams forwarded from its room into
/// another), for the admin API and webhooks.
public struct ForwardSnapshot: Sendable, Hashable {
    /// The room the forwarding user is in.
    public var sourceRoomId: String
    /// The forwarding user.
    public var userId: String
    /// The room forwarded into.
    public var targetRoomId: String
    /// True while the user paused forwarding to all rooms.
    public var paused: Bool
    /// When forwarding into this target started (or last resumed).
    public var startedAt: EngineTime
    /// Whether the first keyframe has reached a subscriber in the target room.
    public var firstKeyframeDelivered: Bool

    /// Creates a snapshot.
    public init(sourceRoomId: String, userId: String, targetRoomId: String, paused: Bool, startedAt: EngineTime, firstKeyframeDelivered: Bool) {
        self.sourceRoomId = sourceRoomId
        self.userId = userId
        self.targetRoomId = targetRoomId
        self.paused = paused
        self.startedAt = startedAt
        self.firstKeyframeDelivered = firstKeyframeDelivered
    }
}
