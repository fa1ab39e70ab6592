/// A token bucket: `rate` requests per second sustained, bursts up to `burst`.
struct RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    var tokens: Double
    var lastMs: Int64

    init(rate: Int, burst: Int, nowMs: Int64) {
        self.rate = Double(rate)
        self.burst = Double(burst)
        self.tokens = Double(burst)
        self.lastMs = nowMs
    }

    /// Takes one token if there is one.
    mutating func allow(nowMs: Int64) -> Bool {
        let elapsed = Double(max(0, nowMs - lastMs)) / 1000
        lastMs = nowMs
        tokens = min(burst, tokens + elapsed * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
