import Synchronization

/// The admin API's rate limit: one token bucket shared by every caller.
final class AdminRateGate: Sendable {
    private let limiter: Mutex<RateLimiter>

    init(requestsPerSecond: Int, nowMs: Int64) {
        limiter = Mutex(RateLimiter(rate: requestsPerSecond, burst: requestsPerSecond * 2, nowMs: nowMs))
    }

    /// Takes one request's token, if there is one.
    func allow(nowMs: Int64) -> Bool { limiter.withLock { $0.allow(nowMs: nowMs) } }
}
