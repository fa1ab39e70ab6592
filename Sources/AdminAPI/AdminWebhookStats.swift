/// Webhook delivery figures. OpenAPI schema `WebhookStats`.
public struct AdminWebhookStats: Sendable, Codable, Hashable {
    public var enqueued: Int
    public var delivered: Int
    public var failedAttempts: Int
    public var givenUp: Int
    /// Dropped because the queue was full.
    public var dropped: Int
    public var queued: Int

    /// Creates the value from its fields.
    public init(enqueued: Int, delivered: Int, failedAttempts: Int, givenUp: Int, dropped: Int, queued: Int) {
        self.enqueued = enqueued
        self.delivered = delivered
        self.failedAttempts = failedAttempts
        self.givenUp = givenUp
        self.dropped = dropped
        self.queued = queued
    }
}
