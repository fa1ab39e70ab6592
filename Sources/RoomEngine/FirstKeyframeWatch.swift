/// A forward or link direction waiting for its first keyframe to reach the target room.
public struct FirstKeyframeWatch: Sendable, Hashable {
    public var session: SessionID
    public var sourceRoomId: String
    public var userId: String
    public var targetRoomId: String
    public var startedAt: EngineTime
    /// `forward` or `link`.
    public var via: String
    /// Sinks in the target room fed by the forwarded user's video.
    public var sinkIds: [UInt32]
    /// Identifies the link, for links.
    public var linkId: UInt64?
}
