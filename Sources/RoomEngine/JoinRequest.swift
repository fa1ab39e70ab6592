public import Protocol

/// A join whose token the control plane has already verified for this room and user.
public struct JoinRequest: Sendable, Hashable {
    public var session: SessionID
    public var roomId: String
    public var userId: String
    public var role: UserRole
    public var visible: Bool
    public var roomConfig: RoomConfig
    public var grants: TokenGrants

    public init(session: SessionID, roomId: String, userId: String, role: UserRole, visible: Bool, roomConfig: RoomConfig, grants: TokenGrants) {
        self.session = session
        self.roomId = roomId
        self.userId = userId
        self.role = role
        self.visible = visible
        self.roomConfig = roomConfig
        self.grants = grants
    }
}
