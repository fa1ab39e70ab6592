/// When the traffic tool, not the relay, is what ran out: one of its media threads used
/// ``maxThreadShare`` of a core or more, the whole process used ``maxProcessShare`` of the cores
/// it may run on, or its packets left more than ``maxLatenessP99Ms`` after their schedule at
/// p99. A loaded generator sends late and reads late, so the loss and latency it measures are
/// partly its own.
public struct ToolBoundRule: Sendable, Hashable {
    public var maxThreadShare: Double
    public var maxProcessShare: Double
    public var maxLatenessP99Ms: Double

    public init(maxThreadShare: Double = 0.9, maxProcessShare: Double = 0.9, maxLatenessP99Ms: Double = 5) {
        self.maxThreadShare = maxThreadShare
        self.maxProcessShare = maxProcessShare
        self.maxLatenessP99Ms = maxLatenessP99Ms
    }

    /// The reasons the figures make the tool the bound; empty when they do not.
    public func reasons(busiestThreadShare: Double, processShare: Double, latenessP99Ms: Double) -> [String] {
        var reasons: [String] = []
        if busiestThreadShare >= maxThreadShare {
            reasons.append("a media thread of the tool used \(Self.format(busiestThreadShare)) of a core (limit \(Self.format(maxThreadShare)))")
        }
        if processShare >= maxProcessShare {
            reasons.append("the tool used \(Self.format(processShare)) of its cores (limit \(Self.format(maxProcessShare)))")
        }
        if latenessP99Ms > maxLatenessP99Ms {
            reasons.append("the tool's packets left \(Self.format(latenessP99Ms)) ms late at p99 (limit \(Self.format(maxLatenessP99Ms)) ms)")
        }
        return reasons
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return "\(rounded)"
    }
}
