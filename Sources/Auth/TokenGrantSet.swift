/// The grants a token carries (JWT claim `grants`). Absent grants take the defaults below.
public struct TokenGrantSet: Sendable, Hashable, Codable {
    /// May publish streams. Default true.
    public var publish: Bool?
    /// May subscribe to streams. Default true.
    public var subscribe: Bool?
    /// May forward its streams to other rooms and link with anchors of other rooms (PK). Default true.
    public var forward: Bool?
    /// Always invisible to others. Default false.
    public var hidden: Bool?
    /// May call the admin API. Default false. Admin tokens need no room.
    public var admin: Bool?
    /// When the publish privilege ends (Unix seconds), if before the token's own `exp`: the
    /// user's streams are then unpublished with PrivilegeTokenExpired while it stays in the room.
    public var publishExpiresAt: Int64?
    /// The room server vouches for the address the client names in `connectTransport`: media
    /// goes there at once, without waiting for an authenticated packet from it. Default false.
    public var mediaAddress: Bool?

    public init(
        publish: Bool? = nil, subscribe: Bool? = nil, forward: Bool? = nil, hidden: Bool? = nil, admin: Bool? = nil, publishExpiresAt: Int64? = nil,
        mediaAddress: Bool? = nil
    ) {
        self.publish = publish
        self.subscribe = subscribe
        self.forward = forward
        self.hidden = hidden
        self.admin = admin
        self.publishExpiresAt = publishExpiresAt
        self.mediaAddress = mediaAddress
    }

    public var canPublish: Bool { publish ?? true }
    public var canSubscribe: Bool { subscribe ?? true }
    public var canForward: Bool { forward ?? true }
    public var isHidden: Bool { hidden ?? false }
    public var isAdmin: Bool { admin ?? false }
    public var vouchesForMediaAddress: Bool { mediaAddress ?? false }
}
