/// Percentiles of a latency distribution, in milliseconds, as written in reports.
public struct LatencySummary: Sendable, Codable, Hashable {
    /// Values in the distribution.
    public var count: UInt64
    public var p50: Double
    public var p90: Double
    public var p99: Double
    /// The 99.9th percentile.
    public var p999: Double
    public var max: Double

    public init(count: UInt64, p50: Double, p90: Double, p99: Double, p999: Double, max: Double) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }
}
