public import Protocol

/// A read-only view of one member, for stats and the admin API.
public struct MemberSnapshot: Sendable, Hashable {
    /// A subscription: whose stream, and the sinks delivering it.
    public struct SubscriptionView: Sendable, Hashable {
        public var publisherUserId: String
        public var streamIndex: StreamIndex
        public var mediaType: Int
        public var sinks: [SinkTrack]
        /// The video encoding delivered, and whether any is (false while paused for the
        /// subscriber's downlink); nil while no video is delivered.
        public var videoStreamType: VideoStreamType?
        public var videoEnabled: Bool?
    }

    public var roomId: String
    public var userId: String
    public var session: SessionID
    public var role: UserRole
    public var visible: Bool
    public var tokenExpiresAt: EngineTime
    /// Published tracks by stream.
    public var publications: [StreamIndex: [SourceTrack]]
    public var subscriptions: [SubscriptionView]
    /// For a member another node serving the room holds (an edge's viewer at the origin, the
    /// origin's member on an edge): that node.
    public var heldBy: String?
}
