/// Data of `onUserLeave`: a visible user left or became invisible.
public struct UserLeaveEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var reason: LeaveReason

    public init(roomId: String, userId: String, reason: LeaveReason) {
        self.roomId = roomId
        self.userId = userId
        self.reason = reason
    }
}
