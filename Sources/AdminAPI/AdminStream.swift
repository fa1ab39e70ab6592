public import Protocol

/// A published stream. OpenAPI schema `Stream`.
public struct AdminStream: Sendable, Codable, Hashable {
    public var streamIndex: StreamIndex
    /// Bit 0 audio, bit 1 video.
    public var mediaType: Int
    public var tracks: [AdminTrack]

    /// Creates the value from its fields.
    public init(streamIndex: StreamIndex, mediaType: Int, tracks: [AdminTrack]) {
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.tracks = tracks
    }
}
