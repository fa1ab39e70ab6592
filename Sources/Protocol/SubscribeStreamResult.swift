/// Result of `subscribeStream`, and the data of `onStreamSubscribed`.
public struct SubscribeStreamResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var streamIndex: StreamIndex
    public var state: SubscribeState
    /// The tracks the relay sends (empty while the stream is not published).
    public var tracks: [SubscribedTrack]
    public init(roomId: String, userId: String, streamIndex: StreamIndex, state: SubscribeState, tracks: [SubscribedTrack]) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.state = state
        self.tracks = tracks
    }
}
