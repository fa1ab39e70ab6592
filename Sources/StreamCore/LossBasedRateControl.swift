/// The loss-based half of Google congestion control (draft-ietf-rmcat-gcc-02, section 6): from
/// the share of packets lost since its last update, it grows its rate 8 % a second while loss
/// stays under 2 %, holds it up to 10 %, and above that cuts it by half the loss, at most once a
/// round trip (plus 300 ms) so one burst is not punished twice. The estimate a transport uses is
/// the smaller of this and the delay-based rate.
///
/// It takes its loss from transport-wide feedback, or from RTCP receiver reports' fraction lost
/// where a subscriber has no transport-wide feedback.
public struct LossBasedRateControl: Sendable {
    static let lowLoss = 0.02
    static let highLoss = 0.10
    static let increasePerSecond = 0.08
    /// Packets a loss share is reckoned over, at the least.
    public static let minimumPackets = 20

    public private(set) var bitrateBps: Double
    public let minimumBps: Double
    public let maximumBps: Double
    /// The last loss share acted on.
    public private(set) var lossFraction = 0.0
    var expected = 0
    var lost = 0
    var lastUpdateUs: Int64?
    var lastDecreaseUs: Int64?

    public init(startBps: Double, minimumBps: Double, maximumBps: Double) {
        self.minimumBps = minimumBps
        self.maximumBps = maximumBps
        bitrateBps = min(max(startBps, minimumBps), maximumBps)
    }

    /// Raises the rate to at least `value` (a probe found that much).
    public mutating func raise(to value: Double) {
        bitrateBps = min(max(bitrateBps, value), maximumBps)
    }

    /// Counts `received` and `lost` packets from one feedback; acts once enough are counted.
    /// `currentBps` is the transport's estimate now: a cut starts from it when it is lower.
    public mutating func record(received: Int, lost newlyLost: Int, currentBps: Double, rttUs: Int64, nowUs: Int64) {
        expected += received + newlyLost
        lost += newlyLost
        guard expected >= Self.minimumPackets else { return }
        apply(fraction: Double(lost) / Double(expected), currentBps: currentBps, rttUs: rttUs, nowUs: nowUs)
        expected = 0
        lost = 0
    }

    /// Acts on a loss share measured elsewhere (a receiver report's fraction lost).
    public mutating func apply(fraction: Double, currentBps: Double, rttUs: Int64, nowUs: Int64) {
        lossFraction = fraction
        let elapsedUs = lastUpdateUs.map { min(max(nowUs - $0, 0), 1_000_000) } ?? 0
        lastUpdateUs = nowUs
        if fraction < Self.lowLoss {
            bitrateBps += bitrateBps * Self.increasePerSecond * Double(elapsedUs) / 1_000_000
        } else if fraction > Self.highLoss {
            if let last = lastDecreaseUs, nowUs - last < rttUs + 300_000 { return }
            bitrateBps = min(bitrateBps, currentBps) * (1 - 0.5 * fraction)
            lastDecreaseUs = nowUs
        }
        bitrateBps = min(max(bitrateBps, minimumBps), maximumBps)
    }
}
