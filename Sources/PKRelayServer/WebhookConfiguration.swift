/// The `webhooks:` settings: where events are posted, how they are signed, and how hard the
/// relay tries before giving an event up.
public struct WebhookConfiguration: Sendable, Hashable {
    /// Endpoints every event is posted to; none turns webhooks off.
    public var urls: [String] = []
    /// The HMAC-SHA256 key of the `X-PKRelay-Signature` header.
    public var secret = ""
    /// Time allowed for one delivery attempt.
    public var requestTimeoutMs = 5000
    /// How long an event is retried before it is given up (counted as a failure).
    public var retryForSeconds = 60
    /// The first retry delay; each later one doubles, up to ``maxBackoffMs``.
    public var initialBackoffMs = 500
    public var maxBackoffMs = 15000
    /// Events waiting per endpoint; more are dropped and counted.
    public var queueSize = 10000
    /// Rooms delivered to in parallel per endpoint (events of one room go one at a time).
    public var concurrency = 16

    /// Creates the defaults (webhooks off).
    public init() {}

    /// True when at least one endpoint is configured.
    public var isEnabled: Bool { !urls.isEmpty }
}
