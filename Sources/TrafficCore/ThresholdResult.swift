/// The command line's pass/fail limits and whether the run kept them.
public struct ThresholdResult: Sendable, Codable, Hashable {
    /// `--max-loss` in percent, when given.
    public var maxLossPercent: Double?
    /// `--max-p99` in milliseconds, when given.
    public var maxP99Ms: Double?
    /// One sentence per limit exceeded.
    public var violations: [String]

    public init(maxLossPercent: Double?, maxP99Ms: Double?, violations: [String]) {
        self.maxLossPercent = maxLossPercent
        self.maxP99Ms = maxP99Ms
        self.violations = violations
    }

    /// Checks a run's loss and p99 latency against the limits.
    public static func evaluate(lossPercent: Double, p99Ms: Double, maxLossPercent: Double?, maxP99Ms: Double?) -> ThresholdResult {
        var violations: [String] = []
        if let maxLossPercent, lossPercent > maxLossPercent {
            violations.append("loss \(CapacitySearch.format(lossPercent)) % exceeds --max-loss \(CapacitySearch.format(maxLossPercent)) %")
        }
        if let maxP99Ms, p99Ms > maxP99Ms {
            violations.append("p99 latency \(CapacitySearch.format(p99Ms)) ms exceeds --max-p99 \(CapacitySearch.format(maxP99Ms)) ms")
        }
        return ThresholdResult(maxLossPercent: maxLossPercent, maxP99Ms: maxP99Ms, violations: violations)
    }

    /// Whether every limit was kept.
    public var passed: Bool { violations.isEmpty }
}
