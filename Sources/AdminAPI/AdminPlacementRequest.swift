public import Protocol

/// The optional body of `POST /admin/v1/rooms/{roomId}/placement`. OpenAPI schema
/// `PlacementRequest`.
public struct AdminPlacementRequest: Sendable, Codable, Hashable {
    /// `audience` asks where a viewer joins (with `userId`): the room's node, or past the room's
    /// `cluster.edgeAfterAudience` one of its edges. Without it the answer is the room's node.
    public var role: UserRole?
    /// The viewer, with `role: audience`: the same viewer is sent to the same edge every time.
    public var userId: String?

    /// Creates the value from its fields.
    public init(role: UserRole? = nil, userId: String? = nil) {
        self.role = role
        self.userId = userId
    }
}
