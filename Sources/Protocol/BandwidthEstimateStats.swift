/// The relay's estimate of a subscriber transport's downlink, as `getStats` reports it.
public struct BandwidthEstimateStats: Sendable, Codable, Hashable {
    /// What drives it: `transport_wide` (the client's transport-wide congestion feedback on every
    /// packet the relay sent it: delay and loss) or `receiver_reports` (its RTCP receiver
    /// reports' loss, capped by its REMB when it sends one).
    public var source: String
    /// The estimate in bits per second: the smaller of the delay- and loss-based rates.
    public var estimateBps: Int
    public var delayBasedBps: Int
    public var lossBasedBps: Int
    /// What reached the client lately, by its feedback; omitted before enough was reported.
    public var acknowledgedBps: Int?
    /// `normal`, `overusing` (queues on the path grow) or `underusing` (they drain).
    public var delaySignal: String
    /// The share of packets lost lately, 0-1.
    public var lossFraction: Double
    public var roundTripTimeMs: Double
    /// Transport-wide feedback packets the relay has read from the client.
    public var feedbacks: UInt64

    public init(
        source: String, estimateBps: Int, delayBasedBps: Int, lossBasedBps: Int, acknowledgedBps: Int?, delaySignal: String, lossFraction: Double,
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
