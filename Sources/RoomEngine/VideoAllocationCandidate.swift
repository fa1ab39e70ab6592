public import Protocol

/// One subscription whose video the layer allocator may limit: where it goes, what it can
/// receive, and what it is limited to now.
public struct VideoAllocationCandidate: Sendable, Hashable {
    public var ref: SubscriptionRef
    public var session: SessionID
    /// The transport the video goes out on.
    public var transportId: Int
    /// The audio source this subscription delivers on the same transport, if any: its rate is
    /// taken from the budget before any video.
    public var audioSourceId: UInt32?
    /// The encoding the subscriber asked for: a ceiling.
    public var requested: VideoStreamType
    public var bigSourceId: UInt32
    /// The small and medium encodings' sources, when the publisher sends them.
    public var smallSourceId: UInt32?
    public var mediumSourceId: UInt32?
    public var limit: VideoBandwidthLimit
    /// The smallest encoding that fills the subscriber's rendered size (`setRemoteVideoConfig`),
    /// when it asked for one and the encodings' sizes are known: another ceiling.
    public var renderCeiling: VideoStreamType?

    public init(
        ref: SubscriptionRef, session: SessionID, transportId: Int, audioSourceId: UInt32?, requested: VideoStreamType, bigSourceId: UInt32,
        smallSourceId: UInt32?, mediumSourceId: UInt32? = nil, limit: VideoBandwidthLimit, renderCeiling: VideoStreamType? = nil
    ) {
        self.renderCeiling = renderCeiling
        self.mediumSourceId = mediumSourceId
        self.ref = ref
        self.session = session
        self.transportId = transportId
        self.audioSourceId = audioSourceId
        self.requested = requested
        self.bigSourceId = bigSourceId
        self.smallSourceId = smallSourceId
        self.limit = limit
    }
}
