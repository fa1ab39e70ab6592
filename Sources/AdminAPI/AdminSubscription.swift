public import Protocol

/// A subscription of a user. OpenAPI schema `Subscription`.
public struct AdminSubscription: Sendable, Codable, Hashable {
    public var publisherUserId: String
    public var streamIndex: StreamIndex
    /// Bit 0 audio, bit 1 video.
    public var mediaType: Int

    /// Creates the value from its fields.
    public init(publisherUserId: String, streamIndex: StreamIndex, mediaType: Int) {
        self.publisherUserId = publisherUserId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
    }
}
