/// Webhook delivery figures, summed over endpoints, for /metrics and the admin stats.
public struct WebhookStats: Sendable, Hashable {
    /// Events accepted for delivery (one per endpoint).
    public var enqueued: UInt64 = 0
    /// Events the endpoint answered with 2xx.
    public var delivered: UInt64 = 0
    /// Attempts that failed (connection error, timeout or a non-2xx status).
    public var failedAttempts: UInt64 = 0
    /// Events given up after retrying for `webhooks.retryForSeconds`, or at shutdown.
    public var givenUp: UInt64 = 0
    /// Events dropped because the endpoint's queue was full.
    public var dropped: UInt64 = 0
    /// Events waiting or in flight.
    public var queued: Int = 0

    /// Creates zero figures.
    public init() {}

    static func + (lhs: WebhookStats, rhs: WebhookStats) -> WebhookStats {
        var sum = lhs
        sum.enqueued += rhs.enqueued
        sum.delivered += rhs.delivered
        sum.failedAttempts += rhs.failedAttempts
        sum.givenUp += rhs.givenUp
        sum.dropped += rhs.dropped
        sum.queued += rhs.queued
        return sum
    }
}
