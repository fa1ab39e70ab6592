/// Data of `onConnectOtherRoom`, sent to both anchors of a link: errorCode 0 when the link is up.
public struct ConnectOtherRoomEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var peerRoomId: String
    public var peerUserId: String
    public var errorCode: Int
    public var message: String

    public init(roomId: String, peerRoomId: String, peerUserId: String, errorCode: Int, message: String) {
        self.roomId = roomId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.errorCode = errorCode
        self.message = message
    }
}
