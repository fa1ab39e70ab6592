/// The answer to a dismiss. OpenAPI schema `DismissResult`.
public struct AdminDismissResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var usersRemoved: Int

    /// Creates the value from its fields.
    public init(roomId: String, usersRemoved: Int) {
        self.roomId = roomId
        self.usersRemoved = usersRemoved
    }
}
