/// Data of `onRoomStateChanged`: state 0 after a successful join, else the error code.
public struct RoomStateChangedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var state: Int
    public var joinType: Int

    public init(roomId: String, userId: String, state: Int, joinType: Int) {
        self.roomId = roomId
        self.userId = userId
        self.state = state
        self.joinType = joinType
    }
}
