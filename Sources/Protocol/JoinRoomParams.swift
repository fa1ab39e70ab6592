/// Parameters of `joinRoom`.
public struct JoinRoomParams: Sendable, Codable, Hashable {
    public var token: String
    public var roomId: String
    public var userId: String
    /// Default anchor.
    public var role: UserRole?
    /// Default true (Volcengine's default). Audience members usually join invisible.
    public var visible: Bool?
    public var roomConfig: RoomConfig?

    public init(token: String, roomId: String, userId: String, role: UserRole? = nil, visible: Bool? = nil, roomConfig: RoomConfig? = nil) {
        self.token = token
        self.roomId = roomId
        self.userId = userId
        self.role = role
        self.visible = visible
        self.roomConfig = roomConfig
    }
}
