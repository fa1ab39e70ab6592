/// Parameters of `sendRoomMessage`: UTF-8 `message` or base64 `binary`; `toLinkedRooms` also delivers it to every room linked with this one.
public struct SendRoomMessageParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var message: String?
    public var binary: String?
    public var toLinkedRooms: Bool?

    public init(roomId: String, message: String? = nil, binary: String? = nil, toLinkedRooms: Bool? = nil) {
        self.roomId = roomId
        self.message = message
        self.binary = binary
        self.toLinkedRooms = toLinkedRooms
    }
}
