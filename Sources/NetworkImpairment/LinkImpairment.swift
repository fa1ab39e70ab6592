/// How one direction of an impaired link treats the datagrams it carries: a bottleneck of
/// `rateBitsPerSecond` fed by a token bucket of `burstBytes` behind a queue of at most
/// `queueBytes` (tail drop), then `delayMs` of propagation with up to `jitterMs` either way,
/// and loss on entry, at random and in bursts.
///
/// The default passes everything at once, unchanged.
public struct LinkImpairment: Sendable, Hashable {
    /// The bottleneck's rate; 0 for no limit (then nothing queues).
    public var rateBitsPerSecond: Int
    /// The token bucket's depth: how many bytes may leave back to back at line speed after an
    /// idle spell. One full-size datagram by default, which makes the bottleneck a link of
    /// exactly `rateBitsPerSecond`.
    public var burstBytes: Int
    /// The most bytes waiting for the bottleneck; a datagram that would exceed it is dropped
    /// (tail drop). nil: what the rate carries in ``defaultQueueMs``.
    public var queueBytes: Int?
    /// Added one-way delay after the bottleneck.
    public var delayMs: Double
    /// Each datagram's delay varies uniformly by up to this much either way; datagrams stay in
    /// order (a late one holds back those behind it, as on one path).
    public var jitterMs: Double
    /// The chance that a datagram is lost at random, 0...1.
    public var lossProbability: Double
    /// The chance, per datagram, that a burst of losses starts (0: no bursts).
    public var burstLossProbability: Double
    /// The mean number of datagrams a loss burst takes (geometric).
    public var meanBurstLength: Double

    /// The queue's depth when `queueBytes` is nil, in time at the rate.
    public static let defaultQueueMs = 300
    /// The bucket's depth by default: one datagram of a full Ethernet payload.
    public static let defaultBurstBytes = 1500

    /// Creates an impairment; the defaults impair nothing.
    public init(
        rateBitsPerSecond: Int = 0, burstBytes: Int = LinkImpairment.defaultBurstBytes, queueBytes: Int? = nil, delayMs: Double = 0,
        jitterMs: Double = 0, lossProbability: Double = 0, burstLossProbability: Double = 0, meanBurstLength: Double = 1
    ) {
        self.rateBitsPerSecond = max(0, rateBitsPerSecond)
        self.burstBytes = max(1, burstBytes)
        self.queueBytes = queueBytes.map { max(0, $0) }
        self.delayMs = max(0, delayMs)
        self.jitterMs = max(0, jitterMs)
        self.lossProbability = min(1, max(0, lossProbability))
        self.burstLossProbability = min(1, max(0, burstLossProbability))
        self.meanBurstLength = max(1, meanBurstLength)
    }

    /// Nothing impaired.
    public static let none = LinkImpairment()

    /// The queue limit in force: `queueBytes`, or ``defaultQueueMs`` at the rate (at least one
    /// bucket's worth); unlimited without a rate.
    public var effectiveQueueBytes: Int {
        if let queueBytes { return queueBytes }
        guard rateBitsPerSecond > 0 else { return Int.max }
        return max(burstBytes, rateBitsPerSecond / 8 * Self.defaultQueueMs / 1000)
    }
}
