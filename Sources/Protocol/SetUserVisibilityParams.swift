/// Parameters of `setUserVisibility`.
public struct SetUserVisibilityParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var visible: Bool
    public init(roomId: String, visible: Bool) {
        self.roomId = roomId
        self.visible = visible
    }
}
