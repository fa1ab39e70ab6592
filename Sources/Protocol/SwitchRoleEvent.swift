/// Data of `onSwitchRole`, sent to the user itself: errorCode 0 on success.
public struct SwitchRoleEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var role: UserRole
    public var errorCode: Int

    public init(roomId: String, role: UserRole, errorCode: Int) {
        self.roomId = roomId
        self.role = role
        self.errorCode = errorCode
    }
}
