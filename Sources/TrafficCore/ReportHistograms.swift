/// The full HDR histograms behind a report's percentiles, so that reports of several generators
/// can be merged exactly (`pkrelay-traffic merge`).
public struct ReportHistograms: Sendable, Codable, Hashable {
    /// One-way latency from the actual send time.
    public var latency: HistogramData
    /// One-way latency from the scheduled send time (includes the tool's own lateness).
    public var latencyFromSchedule: HistogramData
    /// How late packets left against their schedule.
    public var sendLateness: HistogramData
    /// Forward or link setup to first keyframe.
    public var setupToFirstKeyframe: HistogramData
    /// Control-request latency by method.
    public var control: [String: HistogramData]

    public init(
        latency: HistogramData, latencyFromSchedule: HistogramData, sendLateness: HistogramData, setupToFirstKeyframe: HistogramData,
        control: [String: HistogramData]
    ) {
        self.latency = latency
        self.latencyFromSchedule = latencyFromSchedule
        self.sendLateness = sendLateness
        self.setupToFirstKeyframe = setupToFirstKeyframe
        self.control = control
    }
}
