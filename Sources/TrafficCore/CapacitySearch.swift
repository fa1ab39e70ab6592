/// The stepping of `--find-max`: start at one load, raise it by a fixed step while each step
/// passes (loss at most ``maxLossPercent``, p99 latency at most ``maxP99Ms``), stop at the first
/// failing step or at ``limit``, and report the last passing step.
public struct CapacitySearch: Sendable {
    public let start: Int
    public let step: Int
    public let limit: Int
    /// Loss above this (in percent) fails a step; 0.1 by default.
    public let maxLossPercent: Double
    /// p99 latency above this (in milliseconds) fails a step; 50 by default.
    public let maxP99Ms: Double
    /// Every step measured so far, in order.
    public private(set) var steps: [CapacityStep] = []
    /// The load to measure next; nil once the search is over.
    public private(set) var nextLoad: Int?

    public init(start: Int, step: Int, limit: Int, maxLossPercent: Double = 0.1, maxP99Ms: Double = 50) {
        self.start = max(1, start)
        self.step = max(1, step)
        self.limit = max(self.start, limit)
        self.maxLossPercent = maxLossPercent
        self.maxP99Ms = maxP99Ms
        self.nextLoad = self.start
    }

    /// Whether a measurement passes the search's limits.
    public func passes(lossPercent: Double, p99Ms: Double) -> Bool {
        lossPercent <= maxLossPercent && p99Ms <= maxP99Ms
    }

    /// Records the measurement of the load ``nextLoad`` asked for and decides the next one.
    ///
    /// - Parameters:
    ///   - setupFailed: The scenario could not be set up at this load (a failing step).
    public mutating func record(streams: Int, packetsPerSecond: Double, lossPercent: Double, p99Ms: Double, setupFailed: String? = nil) {
        guard let load = nextLoad else { return }
        var reasons: [String] = []
        if let setupFailed { reasons.append("setup failed: \(setupFailed)") }
        if lossPercent > maxLossPercent { reasons.append("loss \(Self.format(lossPercent)) % > \(Self.format(maxLossPercent)) %") }
        if p99Ms > maxP99Ms { reasons.append("p99 \(Self.format(p99Ms)) ms > \(Self.format(maxP99Ms)) ms") }
        let passed = reasons.isEmpty
        steps.append(CapacityStep(
            load: load, streams: streams, packetsPerSecond: packetsPerSecond, lossPercent: lossPercent, p99Ms: p99Ms,
            passed: passed, reason: passed ? nil : reasons.joined(separator: "; ")))
        if passed, load + step <= limit {
            nextLoad = load + step
        } else {
            nextLoad = nil
        }
    }

    /// The highest passing step before the first failure; nil when the first step failed.
    public var lastPassing: CapacityStep? {
        var last: CapacityStep?
        for step in steps {
            guard step.passed else { break }
            last = step
        }
        return last
    }

    /// The result written in reports.
    public var result: CapacityResult {
        CapacityResult(maxLossPercent: maxLossPercent, maxP99Ms: maxP99Ms, steps: steps, lastPassing: lastPassing, reachedLimit: steps.last?.passed == true)
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return "\(rounded)"
    }
}
