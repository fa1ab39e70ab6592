/// The optional body of `POST /admin/v1/rooms/{roomId}/dismiss`. OpenAPI schema `DismissRequest`.
public struct AdminDismissRequest: Sendable, Codable, Hashable {
    /// Passed on in the room.dismissed webhook; at most 256 bytes.
    public var reason: String?

    /// Creates the value from its fields.
    public init(reason: String? = nil) {
        self.reason = reason
    }
}
