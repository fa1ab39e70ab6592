public import Protocol

/// A subscription of a user. OpenAPI schema `Subscription`.
public struct AdminSubscription: Sendable, Codable, Hashable {
    public var publisherUserId: String
    public var streamIndex: StreamIndex
    /// Bit 0 audio, bit 1 video.
    public var mediaType: Int
    /// The transport the subscription is delivered on, once it has one.
    public var transportId: Int?
    /// The relay's estimate of that transport's downlink (as `getStats` gives it to the client).
    public var bandwidthEstimate: BandwidthEstimateStats?
    /// The video encoding delivered (0 big, 1 small), and whether video is delivered at all
    /// (false while the layer allocator paused it: audio only); both absent without video.
    public var videoStreamType: VideoStreamType?
    public var videoEnabled: Bool?

    /// Creates the value from its fields.
    public init(
        publisherUserId: String, streamIndex: StreamIndex, mediaType: Int, transportId: Int? = nil, bandwidthEstimate: BandwidthEstimateStats? = nil,
        videoStreamType: VideoStreamType? = nil, videoEnabled: Bool? = nil
    ) {
        self.videoStreamType = videoStreamType
        self.videoEnabled = videoEnabled
        self.publisherUserId = publisherUserId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.transportId = transportId
        self.bandwidthEstimate = bandwidthEstimate
    }
}
