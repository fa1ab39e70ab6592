/// The relay's estimate of a subscriber transport's downlink and what it came from.
public struct BandwidthEstimateReport: Sendable, Hashable, Codable {
    /// What drives the estimate.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// The subscriber's transport-wide feedback on every packet the relay stamped: delay and
        /// loss together.
        case transportWideFeedback = "transport_wide"
        /// Its receiver reports' fraction lost (and its REMB, when it sends one): the subscriber
        /// negotiated no transport-wide congestion control, or has sent no feedback yet.
        case receiverReports = "receiver_reports"
    }

    public var source: Source
    /// The estimate: the smaller of the delay- and loss-based rates (and of a REMB).
    public var estimateBps: Int
    public var delayBasedBps: Int
    public var lossBasedBps: Int
    /// What arrived at the subscriber lately, by its feedback; nil before enough was reported.
    public var acknowledgedBps: Int?
    /// The delay-based detector's reading of the path's queue: `normal`, `overusing` (queues
    /// grow) or `underusing` (they drain).
    public var delaySignal: String
    /// The share of packets lost lately (0-1).
    public var lossFraction: Double
    /// The round trip, from feedback or receiver reports.
    public var roundTripTimeMs: Double
    /// Transport-wide feedback packets taken.
    public var feedbacks: UInt64

    public init(
        source: Source, estimateBps: Int, delayBasedBps: Int, lossBasedBps: Int, acknowledgedBps: Int?, delaySignal: String, lossFraction: Double,
        roundTripTimeMs: Double, feedbacks: UInt64
    ) {
        self.source = source
        self.estimateBps = estimateBps
        self.delayBasedBps = delayBasedBps
        self.lossBasedBps = lossBasedBps
        self.acknowledgedBps = acknowledgedBps
        self.delaySignal = delaySignal
        self.lossFraction = lossFraction
        self.roundTripTimeMs = roundTripTimeMs
        self.feedbacks = feedbacks
    }
}
