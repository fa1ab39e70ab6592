/// Parameters of `unpublishStream`: a room and one of the caller's streams.
public struct StreamParams: Sendable, Codable, Hashable {
    public var roomId: String
    /// Default main.
    public var streamIndex: StreamIndex?
    public init(roomId: String, streamIndex: StreamIndex? = nil) {
        self.roomId = roomId
        self.streamIndex = streamIndex
    }
}
