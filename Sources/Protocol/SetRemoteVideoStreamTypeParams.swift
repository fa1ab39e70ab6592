/// Parameters of `setRemoteVideoStreamType`: which video encoding of a subscribed stream to receive.
public struct SetRemoteVideoStreamTypeParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    /// Default main.
    public var streamIndex: StreamIndex?
    /// The encoding wanted, a ceiling below which layer allocation may go on a weak downlink.
    /// Small or medium falls back to big while the publisher sends none.
    public var streamType: VideoStreamType

    public init(roomId: String, userId: String, streamIndex: StreamIndex? = nil, streamType: VideoStreamType) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.streamType = streamType
    }
}
