/// Data of `onDisconnectOtherRoom`, sent to both anchors when a link ends; reason `disconnect`, `peerLeft`, `left`, `roomDismissed`, `kicked`.
public struct DisconnectOtherRoomEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var peerRoomId: String
    public var peerUserId: String
    public var reason: String
    public var errorCode: Int

    public init(roomId: String, peerRoomId: String, peerUserId: String, reason: String, errorCode: Int) {
        self.roomId = roomId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.reason = reason
        self.errorCode = errorCode
    }
}
