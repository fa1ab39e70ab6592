/// Data of `onUserUnpublishStream`.
public struct UserUnpublishStreamEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var streamIndex: StreamIndex
    public var mediaType: Int
    public var reason: UnpublishReason

    public init(roomId: String, userId: String, streamIndex: StreamIndex, mediaType: Int, reason: UnpublishReason) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
        self.reason = reason
    }
}
