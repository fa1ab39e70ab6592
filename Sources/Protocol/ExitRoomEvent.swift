/// Data of `onExitRoom`: the user itself is no longer in the room.
public struct ExitRoomEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var reason: ExitRoomReason
    public var code: Int
    public var message: String

    public init(roomId: String, reason: ExitRoomReason, code: Int, message: String) {
        self.roomId = roomId
        self.reason = reason
        self.code = code
        self.message = message
    }
}
