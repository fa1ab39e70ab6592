/// A stream published in a room, as listed in a join result.
public struct RemoteStreamInfo: Sendable, Codable, Hashable {
    public var streamIndex: StreamIndex
    /// ``MediaType`` bitmask.
    public var mediaType: Int

    public init(streamIndex: StreamIndex, mediaType: Int) {
        self.streamIndex = streamIndex
        self.mediaType = mediaType
    }
}
