/// Parameters of `subscribeStream` and `unsubscribeStream`.
public struct SubscribeStreamParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    /// Default main.
    public var streamIndex: StreamIndex?
    /// ``MediaType`` bitmask of the tracks wanted; default 3 (audio and video).
    public var mediaType: Int?
    /// The transport to deliver on (required for subscribe, ignored for unsubscribe).
    public var transportId: Int?
    /// Deliver audio on another transport (e.g. a receiver listening on separate ports).
    public var audioTransportId: Int?
    /// Deliver video on another transport.
    public var videoTransportId: Int?
    /// The video encoding wanted from a dual-stream publisher (default big); small or medium
    /// falls back to big while the publisher sends none. A ceiling: on a weak downlink the relay
    /// may deliver less (`setSubscribeFallbackOption`). Change it later with `setRemoteVideoStreamType`.
    public var videoStreamType: VideoStreamType?

    public init(
        roomId: String, userId: String, streamIndex: StreamIndex? = nil, mediaType: Int? = nil, transportId: Int? = nil, audioTransportId: Int? = nil,
        videoTransportId: Int? = nil, videoStreamType: VideoStreamType? = nil
    ) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.transportId = transportId
        self.audioTransportId = audioTransportId
        self.videoTransportId = videoTransportId
        self.videoStreamType = videoStreamType
    }
}
