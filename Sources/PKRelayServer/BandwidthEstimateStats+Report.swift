import MediaPlane
import Protocol

extension BandwidthEstimateStats {
    /// The data plane's estimate of a transport as `getStats` and the admin API report it.
    init(_ report: BandwidthEstimateReport) {
        self.init(
            source: report.source.rawValue, estimateBps: report.estimateBps, delayBasedBps: report.delayBasedBps, lossBasedBps: report.lossBasedBps,
            acknowledgedBps: report.acknowledgedBps, delaySignal: report.delaySignal, lossFraction: report.lossFraction,
            roundTripTimeMs: report.roundTripTimeMs, feedbacks: report.feedbacks)
    }
}
