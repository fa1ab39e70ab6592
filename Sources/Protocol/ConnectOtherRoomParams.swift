/// Parameters of `connectOtherRoom`: link the caller with anchor `userId` in room `roomId`.
/// `localRoomId` names the caller's room when its connection is in more than one.
public struct ConnectOtherRoomParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var localRoomId: String?

    public init(roomId: String, userId: String, localRoomId: String? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.localRoomId = localRoomId
    }
}
