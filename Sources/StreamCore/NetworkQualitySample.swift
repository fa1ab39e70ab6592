/// The figures of one direction of one user's media over a scoring window, as
/// ``NetworkQualityScorer`` reads them. Rates are fractions 0-1.
public struct NetworkQualitySample: Sendable, Hashable {
    /// Packets that arrived (uplink) or were sent (downlink) in the window.
    public var packets: UInt64
    /// Loss the receiver measured (the relay for an uplink, the subscriber's receiver reports for a downlink).
    public var fractionLost: Double
    /// Packets the relay itself dropped in the window, per packet handled.
    public var relayDropRate: Double
    /// Sequence numbers the receiver NACKed in the window, per packet.
    public var nackRate: Double
    public var jitterMs: Double
    public var roundTripTimeMs: Double?
    /// Milliseconds since the last packet.
    public var idleMs: Int64
    /// Whether any packet ever flowed in this direction.
    public var everReceived: Bool

    public init(
        packets: UInt64 = 0, fractionLost: Double = 0, relayDropRate: Double = 0, nackRate: Double = 0, jitterMs: Double = 0, roundTripTimeMs: Double? = nil,
        idleMs: Int64 = 0, everReceived: Bool = true
    ) {
        self.packets = packets
        self.fractionLost = fractionLost
        self.relayDropRate = relayDropRate
        self.nackRate = nackRate
        self.jitterMs = jitterMs
        self.roundTripTimeMs = roundTripTimeMs
        self.idleMs = idleMs
        self.everReceived = everReceived
    }

    /// The loss the score uses: the worst of measured loss, relay drops and NACK rate, capped at 1.
    public var effectiveLoss: Double { min(1, max(0, fractionLost, relayDropRate, nackRate)) }
}
