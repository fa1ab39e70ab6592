/// Result of `publishStream`.
public struct PublishStreamResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var streamIndex: StreamIndex
    public var mediaType: Int
    /// The relay's SDP answer, when the stream was published on a WebRTC transport with an offer.
    public var sdp: String?
    public init(roomId: String, streamIndex: StreamIndex, mediaType: Int, sdp: String? = nil) {
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.sdp = sdp
    }
}
