/// Result of `publishStream`.
public struct PublishStreamResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var streamIndex: StreamIndex
    public var mediaType: Int
    public init(roomId: String, streamIndex: StreamIndex, mediaType: Int) {
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
    }
}
