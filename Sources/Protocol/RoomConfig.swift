/// Per-room behaviour a user chooses when joining.
public struct RoomConfig: Sendable, Codable, Hashable {
    /// Re-publish the user's declared streams automatically whenever it becomes a visible anchor
    /// again (after switchRole or setUserVisibility). Default true.
    public var autoPublish: Bool?
    /// Subscribe to every audio track published in the room. Default true.
    public var autoSubscribeAudio: Bool?
    /// Subscribe to every video track published in the room. Default true.
    public var autoSubscribeVideo: Bool?
    /// The transport auto-subscriptions are delivered on. Without it, auto-subscribe does nothing.
    public var subscribeTransportId: Int?
    /// The video encoding auto-subscriptions ask dual-stream publishers for (default big); an
    /// audience on a weak network joins with small.
    public var autoSubscribeVideoStreamType: VideoStreamType?

    public init(
        autoPublish: Bool? = nil, autoSubscribeAudio: Bool? = nil, autoSubscribeVideo: Bool? = nil, subscribeTransportId: Int? = nil,
        autoSubscribeVideoStreamType: VideoStreamType? = nil
    ) {
        self.autoPublish = autoPublish
        self.autoSubscribeAudio = autoSubscribeAudio
        self.autoSubscribeVideo = autoSubscribeVideo
        self.subscribeTransportId = subscribeTransportId
        self.autoSubscribeVideoStreamType = autoSubscribeVideoStreamType
    }
}
