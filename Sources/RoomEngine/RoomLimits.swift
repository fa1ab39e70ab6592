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

    public init() {}
}
