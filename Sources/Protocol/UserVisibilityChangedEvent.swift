/// Data of `onUserVisibilityChanged`, sent to the user itself: errorCode Ok 0, Unknown 1, TooManyVisibleUser 2.
public struct UserVisibilityChangedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var visible: Bool
    public var errorCode: Int

    public init(roomId: String, visible: Bool, errorCode: Int) {
        self.roomId = roomId
        self.visible = visible
        self.errorCode = errorCode
    }
}
