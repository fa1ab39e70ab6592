/// What a verified token allows, and until when.
public struct TokenGrants: Sendable, Hashable {
    public var publish: Bool
    public var subscribe: Bool
    /// May forward its streams to other rooms and link with anchors of other rooms.
    public var forward: Bool
    /// The user is always invisible to others.
    public var hidden: Bool
    /// Unix milliseconds after which the token is no longer valid.
    public var expiresAt: EngineTime
    /// When the publish privilege ends, if earlier than ``expiresAt``.
    public var publishExpiresAt: EngineTime?
    /// The room server vouches for the media address the client names.
    public var mediaAddress: Bool

    public init(
        publish: Bool = true, subscribe: Bool = true, forward: Bool = true, hidden: Bool = false, expiresAt: EngineTime, publishExpiresAt: EngineTime? = nil,
        mediaAddress: Bool = false
    ) {
        self.publish = publish
        self.subscribe = subscribe
        self.forward = forward
        self.hidden = hidden
        self.expiresAt = expiresAt
        self.publishExpiresAt = publishExpiresAt
        self.mediaAddress = mediaAddress
    }
}
