/// Data of `onSubscribedLayersChanged`, sent to a publisher of a dual-stream (simulcast) video:
/// which of its encodings any subscriber receives, here or through forwards and PK links. An
/// encoding nobody receives need not be encoded: the web SDK turns the small (and medium) one
/// off and on by itself.
public struct SubscribedLayersChangedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var streamIndex: StreamIndex
    public var bigSubscribed: Bool
    public var smallSubscribed: Bool
    /// Present when the publisher sends a third, medium encoding.
    public var mediumSubscribed: Bool?

    public init(roomId: String, streamIndex: StreamIndex, bigSubscribed: Bool, smallSubscribed: Bool, mediumSubscribed: Bool? = nil) {
        self.mediumSubscribed = mediumSubscribed
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.bigSubscribed = bigSubscribed
        self.smallSubscribed = smallSubscribed
    }
}
