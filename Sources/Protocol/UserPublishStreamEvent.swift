/// Data of `onUserPublishStream`.
public struct UserPublishStreamEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var streamIndex: StreamIndex
    public var mediaType: Int

    public init(roomId: String, userId: String, streamIndex: StreamIndex, mediaType: Int) {
        self.roomId = roomId
        self.userId = userId
        self.streamIndex = streamIndex
        self.mediaType = mediaType
    }
}
