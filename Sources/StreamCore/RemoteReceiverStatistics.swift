/// What a subscriber reports about the stream it receives from the relay, taken from the
/// report blocks of its RTCP receiver reports.
public struct RemoteReceiverStatistics: Sendable {
    /// The fraction of packets lost in the last report interval, from 0 to 1.
    public private(set) var fractionLost: Double = 0
    /// The total number of packets the subscriber has lost.
    public private(set) var cumulativeLost: Int32 = 0
    /// The interarrival jitter seen by the subscriber, in timestamp units.
    public private(set) var jitter: UInt32 = 0
    /// The round-trip time between relay and subscriber in milliseconds, from the last report;
    /// `nil` before any report, or when the last report did not refer to a sender report.
    public private(set) var roundTripTimeMs: Double?
    /// The number of report blocks taken into account.
    public private(set) var reportsReceived: UInt64 = 0

    /// Creates empty statistics.
    public init() {}

    /// Takes in one report block.
    ///
    /// - Parameters:
    ///   - fractionLost: The fraction-lost field, in 1/256 units.
    ///   - cumulativeLost: The cumulative-lost field, already sign-extended from 24 bits.
    ///   - jitter: The interarrival jitter field, in timestamp units.
    ///   - lastSenderReport: The LSR field: the middle 32 bits of the NTP timestamp of the last
    ///     sender report the subscriber received, or zero if it has received none.
    ///   - delaySinceLastSenderReport: The DLSR field, in 1/65536 seconds.
    ///   - nowNTPMiddle32: The middle 32 bits of the NTP time at which the report arrived.
    public mutating func update(
        fractionLost: UInt8,
        cumulativeLost: Int32,
        jitter: UInt32,
        lastSenderReport: UInt32,
        delaySinceLastSenderReport: UInt32,
        nowNTPMiddle32: UInt32
    ) {
        reportsReceived += 1
        self.fractionLost = Double(fractionLost) / 256
        self.cumulativeLost = cumulativeLost
        self.jitter = jitter
        guard lastSenderReport != 0 else {
            roundTripTimeMs = nil
            return
        }
        // Differences of 32-bit NTP fractions wrap; read them as signed so that a slightly
        // inconsistent clock gives a small negative value, which is clamped to zero.
        let roundTripUnits = Int32(bitPattern: nowNTPMiddle32 &- lastSenderReport &- delaySinceLastSenderReport)
        roundTripTimeMs = Double(max(roundTripUnits, 0)) * 1000 / 65536
    }
}
