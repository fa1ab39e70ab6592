public import Protocol

/// A room ended at its origin (dismissed, or the origin stopped serving it): every viewer on
/// the edge receiving this leaves with the exit given, as the origin's own members did.
public struct EdgeRoomEnd: Sendable, Hashable, Codable {
    public var node: String
    public var roomId: String
    public var reason: ExitRoomReason
    public var code: Int
    public var message: String

    public init(node: String, roomId: String, reason: ExitRoomReason, code: Int, message: String) {
        self.node = node
        self.roomId = roomId
        self.reason = reason
        self.code = code
        self.message = message
    }
}
