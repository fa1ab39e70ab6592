public import Protocol

/// Names one member's subscription to a publisher's stream, for callers outside the engine.
public struct SubscriptionRef: Sendable, Hashable {
    public var roomId: String
    public var subscriberId: String
    public var publisherUserId: String
    public var streamIndex: StreamIndex

    public init(roomId: String, subscriberId: String, publisherUserId: String, streamIndex: StreamIndex) {
        self.roomId = roomId
        self.subscriberId = subscriberId
        self.publisherUserId = publisherUserId
        self.streamIndex = streamIndex
    }
}
