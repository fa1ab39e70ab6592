/// Data of `onRoomMessageReceived` and `onUserMessageReceived`. `fromRoomId` differs from `roomId` when a linked room's anchor sent it.
public struct MessageReceivedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var fromRoomId: String
    public var userId: String
    public var message: String?
    public var binary: String?

    public init(roomId: String, fromRoomId: String, userId: String, message: String?, binary: String?) {
        self.roomId = roomId
        self.fromRoomId = fromRoomId
        self.userId = userId
        self.message = message
        self.binary = binary
    }
}
