/// Judges whether the traffic tool was the bound, from CPU samples and send lateness. The clock
/// and the CPU readings come from outside, so tests script them.
public struct GeneratorLoadMonitor: Sendable {
    public let rule: ToolBoundRule
    public let host: String
    public let cores: Int
    private var windowStart: CPUSample?
    private var lastSample: CPUSample?

    public init(rule: ToolBoundRule = ToolBoundRule(), host: String, cores: Int) {
        self.rule = rule
        self.host = host
        self.cores = max(1, cores)
    }

    /// Starts the measured window (and the first live interval) at `sample`.
    public mutating func start(_ sample: CPUSample) {
        windowStart = sample
        lastSample = sample
    }

    /// The load since the previous call (or the start): for the live line.
    public mutating func interval(_ sample: CPUSample, lateness: LatencyRecorder) -> GeneratorLoad {
        defer { lastSample = sample }
        return load(from: lastSample ?? sample, to: sample, lateness: lateness, packets: 0)
    }

    /// The load over the whole window, up to `sample`: for the report.
    ///
    /// - Parameters:
    ///   - lateness: Every packet's send lateness over the window.
    ///   - packets: Packets the tool sent and received over the window.
    public func window(until sample: CPUSample, lateness: LatencyRecorder, packets: UInt64) -> GeneratorLoad {
        load(from: windowStart ?? sample, to: sample, lateness: lateness, packets: packets)
    }

    func load(from start: CPUSample, to end: CPUSample, lateness: LatencyRecorder, packets: UInt64) -> GeneratorLoad {
        let seconds = Double(max(0, end.atMicroseconds - start.atMicroseconds)) / 1e6
        let processSeconds = Double(max(0, end.processMicroseconds - start.processMicroseconds)) / 1e6
        let threadShares: [Double] = end.threadMicroseconds.indices.map { index in
            guard seconds > 0 else { return 0 }
            let before = index < start.threadMicroseconds.count ? start.threadMicroseconds[index] : 0
            return Double(max(0, end.threadMicroseconds[index] - before)) / 1e6 / seconds
        }
        let processShare = seconds > 0 ? processSeconds / seconds / Double(cores) : 0
        let latenessSummary = lateness.summary
        let reasons =
            seconds > 0
            ? rule.reasons(busiestThreadShare: threadShares.max() ?? 0, processShare: processShare, latenessP99Ms: latenessSummary.p99)
            : []
        return GeneratorLoad(
            host: host, cores: cores, threads: end.threadMicroseconds.count, processCPUSeconds: processSeconds, processShare: processShare,
            threadShares: threadShares, sendLatenessMs: latenessSummary,
            cpuMicrosecondsPerPacket: packets > 0 ? processSeconds * 1e6 / Double(packets) : 0,
            toolBound: !reasons.isEmpty, reasons: reasons)
    }
}
