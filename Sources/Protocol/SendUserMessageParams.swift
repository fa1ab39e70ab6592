/// Parameters of `sendUserMessage`: to one user of the room.
public struct SendUserMessageParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var message: String?
    public var binary: String?

    public init(roomId: String, userId: String, message: String? = nil, binary: String? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.message = message
        self.binary = binary
    }
}
