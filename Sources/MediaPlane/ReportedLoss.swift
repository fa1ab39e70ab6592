/// What one RTCP report's blocks say about the tracks a subscriber transport receives: the
/// worst fraction lost (the track hurt most is the one a lower rate must save) and the round
/// trip, for the transport's bandwidth estimate.
struct ReportedLoss {
    /// Blocks about the transport's sinks.
    private(set) var blocks = 0
    /// The largest fraction lost among them (RFC 3550, out of 256).
    private(set) var fractionLost: UInt8 = 0
    /// The last round trip one of them gave.
    private(set) var roundTripTimeMs: Double?

    mutating func add(fractionLost: UInt8, roundTripTimeMs: Double?) {
        blocks += 1
        self.fractionLost = max(self.fractionLost, fractionLost)
        if let roundTripTimeMs { self.roundTripTimeMs = roundTripTimeMs }
    }
}
