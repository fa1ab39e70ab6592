/// Limits and timings of the room engine. The defaults follow the commercial services' behaviour.
public struct RoomLimits: Sendable, Hashable {
    /// Visible users per room; a further user asking to be visible gets TooManyVisibleUser.
    public var maximumVisibleUsersPerRoom: Int = 500
    /// Publishing users per room; a further publish gets -1080.
    public var maximumPublishersPerRoom: Int = 50
    /// Subscriptions per user per room; a further subscribe gets -1070.
    public var maximumSubscriptionsPerUser: Int = 100
    /// A publication with no media for this long is unpublished with KeepLiveFailed.
    public var keepAliveTimeoutMilliseconds: Int64 = 10_000
    /// How long before a token's expiry onTokenWillExpire is sent.
    public var tokenExpiryWarningMilliseconds: Int64 = 30_000
    /// Target rooms one user may forward into at once.
    public var maximumForwardTargetsPerUser: Int = 8
    /// PK links one anchor may hold at once.
    public var maximumLinksPerUser: Int = 4
    /// PK links one room may take part in at once.
    public var maximumLinksPerRoom: Int = 8
    /// Invitation timeout when the caller gives none, and the longest allowed.
    public var invitationDefaultTimeoutSeconds: Int = 30
    public var invitationMaximumTimeoutSeconds: Int = 3600
    /// Largest invitation payload (UTF-8 bytes).
    public var invitationMaximumPayloadBytes: Int = 8192
    /// An anchor already in a link refuses invitations automatically with reason busy.
    public var autoRejectBusyInvitations: Bool = true
    /// Largest room or user message, and messages per second per user.
    public var maximumMessageBytes: Int = 4096
    public var maximumMessagesPerSecond: Int = 10

    public init() {}
}
