public import Protocol

/// A stream of a user in its own room that went live or ended.
public struct StreamChange: Sendable, Hashable {
    public var roomId: String
    public var userId: String
    public var streamIndex: StreamIndex
    /// Bit 0 audio, bit 1 video.
    public var mediaType: Int
    /// Why the stream ended (as its room heard in onUserUnpublishStream); nil when it went live.
    public var reason: UnpublishReason?
    /// When the stream ended because its user left the room: why the user left.
    public var departure: DepartureReason?

    public init(roomId: String, userId: String, streamIndex: StreamIndex, mediaType: Int, reason: UnpublishReason? = nil, departure: DepartureReason? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.reason = reason
        self.departure = departure
    }
}
