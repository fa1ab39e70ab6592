/// Parameters of `switchRole`.
public struct SwitchRoleParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var role: UserRole
    public init(roomId: String, role: UserRole) {
        self.roomId = roomId
        self.role = role
    }
}
