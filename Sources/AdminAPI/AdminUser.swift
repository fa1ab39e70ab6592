public import Protocol

/// A user in a room: role, visibility, streams and subscriptions. OpenAPI schema `User`.
public struct AdminUser: Sendable, Codable, Hashable {
    public var userId: String
    public var role: UserRole
    public var visible: Bool
    /// For a user forwarded or linked in, the room it is in.
    public var forwardedFrom: String?
    /// Unix seconds, as in tokens.
    public var tokenExpiresAt: Int64
    public var streams: [AdminStream]
    public var subscriptions: [AdminSubscription]
    /// The cluster node that serves the user, when another node serves the room with this one
    /// (its origin, or one of its edges) and the user is there; nil for a user of this node.
    public var nodeId: String?

    /// Creates the value from its fields.
    public init(
        userId: String, role: UserRole, visible: Bool, forwardedFrom: String? = nil, tokenExpiresAt: Int64, streams: [AdminStream],
        subscriptions: [AdminSubscription], nodeId: String? = nil
    ) {
        self.nodeId = nodeId
        self.userId = userId
        self.role = role
        self.visible = visible
        self.forwardedFrom = forwardedFrom
        self.tokenExpiresAt = tokenExpiresAt
        self.streams = streams
        self.subscriptions = subscriptions
    }
}
