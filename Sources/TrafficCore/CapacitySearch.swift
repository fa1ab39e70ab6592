/// The stepping of `--find-max`: start at one load, raise it by a fixed step while each step
/// passes (loss at most ``maxLossPercent``, p99 latency at most ``maxP99Ms``), stop at the first
/// failing step or at ``limit``, and report the last passing step.
///
/// A step at which the traffic tool was the bound fails whatever it measured and ends the
/// search: its figures describe the tool, so it is never reported as the relay's capacity.
/// The search ended on the relay only when the relay was saturated at the failing step.
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
    private var setupFailedAt: Int?

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
    ///   - toolBound: Why the traffic tool was the bound at this step; empty when it was not.
    ///   - relayBound: Whether the relay was saturated; nil when its metrics were not read.
    ///   - relayShare: The relay's busiest share (cores or one media thread), for the report.
    ///   - toolShare: The tool's busiest media thread, for the report.
    public mutating func record(
        streams: Int, packetsPerSecond: Double, lossPercent: Double, p99Ms: Double, setupFailed: String? = nil,
        toolBound: [String] = [], relayBound: Bool? = nil, relayShare: Double? = nil, toolShare: Double? = nil
    ) {
        guard let load = nextLoad else { return }
        var reasons: [String] = []
        if let setupFailed { reasons.append("setup failed: \(setupFailed)") }
        if !toolBound.isEmpty { reasons.append("tool-bound: " + toolBound.joined(separator: "; ")) }
        if lossPercent > maxLossPercent { reasons.append("loss \(Self.format(lossPercent)) % > \(Self.format(maxLossPercent)) %") }
        if p99Ms > maxP99Ms { reasons.append("p99 \(Self.format(p99Ms)) ms > \(Self.format(maxP99Ms)) ms") }
        let passed = reasons.isEmpty
        steps.append(
            CapacityStep(
                load: load, streams: streams, packetsPerSecond: packetsPerSecond, lossPercent: lossPercent, p99Ms: p99Ms,
                passed: passed, reason: passed ? nil : reasons.joined(separator: "; "), toolBound: !toolBound.isEmpty, relayBound: relayBound))
        steps[steps.count - 1].relayShare = relayShare
        steps[steps.count - 1].toolShare = toolShare
        if setupFailed != nil { setupFailedAt = load }
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

    /// What ended the search (see ``CapacityBound``).
    public var endedBy: CapacityBound {
        guard let failing = steps.first(where: { !$0.passed }) else { return .limit }
        if setupFailedAt == failing.load { return .setup }
        // A saturated relay is the relay's limit even when the tool was late too: its CPU is
        // measured on its own side, and the last passing step was not tool-bound.
        if failing.relayBound == true { return .relay }
        if failing.toolBound { return .tool }
        switch failing.relayBound {
        case true?: return .relay
        case false?: return .neither
        case nil: return .unverified
        }
    }

    /// The result written in reports.
    public var result: CapacityResult {
        CapacityResult(
            maxLossPercent: maxLossPercent, maxP99Ms: maxP99Ms, steps: steps, lastPassing: lastPassing,
            reachedLimit: steps.last?.passed == true, endedBy: endedBy)
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return "\(rounded)"
    }
}
