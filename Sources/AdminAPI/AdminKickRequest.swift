/// The body of `POST /admin/v1/rooms/{roomId}/kick`. OpenAPI schema `KickRequest`.
public struct AdminKickRequest: Sendable, Codable, Hashable {
    /// 1 to 100 user ids.
    public var userIds: [String]

    /// Creates the value from its fields.
    public init(userIds: [String]) {
        self.userIds = userIds
    }
}
