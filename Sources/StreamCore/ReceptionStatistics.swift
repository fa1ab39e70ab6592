/// Reception statistics of one incoming RTP stream, as RTCP receiver reports need them
/// (RFC 3550 appendices A.1, A.3 and A.8).
///
/// Sequence numbers are extended with a wrap-around cycle count. Packets up to
/// ``maximumMisorder`` behind the highest sequence number are accepted as reordered, and packets
/// up to ``maximumDropout`` ahead as a forward jump over lost packets. A larger jump is taken as
/// a restart of the sender only when the next packet confirms it by following on directly; the
/// counters then start afresh.
///
/// Unlike the reference algorithm, duplicates are recognised (over a window that covers every
/// reordered packet accepted) and not counted, so a duplicated packet cannot hide a lost one.
/// The stream is trusted from its first packet: the relay only creates statistics for streams it
/// has negotiated, so the reference algorithm's probation period is not used.
public struct ReceptionStatistics: Sendable {
    /// The largest forward jump, in sequence numbers, still treated as loss.
    public static let maximumDropout: UInt16 = 3000
    /// The furthest a packet may trail the highest sequence number and still count as reordered.
    public static let maximumMisorder: UInt16 = 100

    /// The RTP clock rate of the stream in Hz.
    public let clockRate: UInt32

    /// The number of distinct packets received since the first packet (or the last restart).
    public private(set) var packetsReceived: UInt64 = 0
    /// The interarrival jitter estimate scaled by 16, kept this way so the running average
    /// keeps its fractional part in integer arithmetic (RFC 3550 A.8).
    private var scaledJitter: Int64 = 0
    /// The previous packet's relative transit time in clock ticks, or `nil` before a packet
    /// has been seen.
    private var previousTransit: Int32?
    /// The extended sequence number of the first packet, lowered when an earlier packet arrives
    /// late. Signed so that a packet from before the first cycle can be represented.
    private var extendedBaseSequenceNumber: Int64 = 0
    /// The highest extended sequence number received.
    private var extendedMaximumSequenceNumber: Int64 = -1
    /// One bit per recent sequence number, bit `n` for the highest minus `n`, set once received.
    private var receivedWindow: UInt128 = 0
    /// The sequence number that would confirm a large jump as a sender restart.
    private var restartCandidateSequenceNumber: UInt16?
    /// ``expectedPackets`` when the last report was made.
    private var expectedAtLastReport: UInt64 = 0
    /// ``packetsReceived`` when the last report was made.
    private var receivedAtLastReport: UInt64 = 0

    /// The number of sequence numbers the duplicate window covers.
    private static let windowSize = UInt128.bitWidth

    /// Creates statistics for a stream with the given RTP clock rate.
    public init(clockRate: UInt32) {
        self.clockRate = clockRate
    }

    /// Whether any packet has been accepted.
    private var hasStarted: Bool { extendedMaximumSequenceNumber >= extendedBaseSequenceNumber }

    /// The number of packets that should have arrived: from the first to the highest extended
    /// sequence number; zero before the first packet.
    public var expectedPackets: UInt64 {
        hasStarted ? UInt64(extendedMaximumSequenceNumber - extendedBaseSequenceNumber + 1) : 0
    }

    /// Packets expected but not received. It can shrink when late packets arrive.
    public var cumulativeLost: Int64 {
        Int64(expectedPackets) - Int64(packetsReceived)
    }

    /// The highest sequence number received, extended with the wrap-around cycle count in the
    /// upper 16 bits, as carried in receiver reports.
    public var extendedHighestSequenceNumber: UInt32 {
        hasStarted ? UInt32(truncatingIfNeeded: extendedMaximumSequenceNumber) : 0
    }

    /// The interarrival jitter in timestamp units.
    public var jitter: UInt32 {
        UInt32(truncatingIfNeeded: scaledJitter >> 4)
    }

    /// Accounts for one received packet.
    ///
    /// - Parameters:
    ///   - sequenceNumber: The packet's RTP sequence number.
    ///   - timestamp: The packet's RTP timestamp.
    ///   - arrivalMs: When the packet arrived, in monotonic milliseconds.
    public mutating func record(sequenceNumber: UInt16, timestamp: UInt32, arrivalMs: Int64) {
        guard hasStarted else {
            restart(at: sequenceNumber)
            accept(timestamp: timestamp, arrivalMs: arrivalMs)
            return
        }

        let highest = UInt16(truncatingIfNeeded: extendedMaximumSequenceNumber)
        let forward = sequenceNumber &- highest
        if forward == 0 {
            return
        } else if forward < Self.maximumDropout {
            advanceWindow(by: Int(forward))
            extendedMaximumSequenceNumber += Int64(forward)
            receivedWindow |= 1
        } else if forward <= UInt16.max - Self.maximumMisorder + 1 {
            // Too far from the highest packet either way: wait for the next packet to tell a
            // sender restart from a stray packet.
            if sequenceNumber == restartCandidateSequenceNumber {
                restart(at: sequenceNumber)
            } else {
                restartCandidateSequenceNumber = sequenceNumber &+ 1
                return
            }
        } else {
            let behind = Int(highest &- sequenceNumber)
            let bit: UInt128 = 1 << behind
            guard receivedWindow & bit == 0 else { return }
            receivedWindow |= bit
            let extended = extendedMaximumSequenceNumber - Int64(behind)
            extendedBaseSequenceNumber = min(extendedBaseSequenceNumber, extended)
        }
        restartCandidateSequenceNumber = nil
        accept(timestamp: timestamp, arrivalMs: arrivalMs)
    }

    /// The fraction of packets lost since the previous call, in 1/256 units as carried in
    /// receiver reports (RFC 3550 A.3). Duplicates and late packets never make it negative;
    /// it is zero when nothing was expected or nothing was lost.
    public mutating func makeReportFractionLost() -> UInt8 {
        let expected = expectedPackets
        let expectedInInterval = Int64(expected) - Int64(expectedAtLastReport)
        let receivedInInterval = Int64(packetsReceived) - Int64(receivedAtLastReport)
        expectedAtLastReport = expected
        receivedAtLastReport = packetsReceived
        let lostInInterval = expectedInInterval - receivedInInterval
        guard expectedInInterval > 0, lostInInterval > 0 else { return 0 }
        return UInt8(min((lostInInterval << 8) / expectedInInterval, 255))
    }

    /// Counts a packet that is new to the statistics and updates the jitter (RFC 3550 A.8).
    private mutating func accept(timestamp: UInt32, arrivalMs: Int64) {
        packetsReceived += 1
        let arrival = RTPClockTicks.ticks(milliseconds: arrivalMs, clockRate: clockRate)
        let transit = Int32(bitPattern: arrival &- timestamp)
        if let previousTransit {
            let difference = abs(Int64(transit &- previousTransit))
            scaledJitter += difference - ((scaledJitter + 8) >> 4)
        }
        previousTransit = transit
    }

    /// Starts counting afresh from `sequenceNumber`, at the first packet or a confirmed
    /// sender restart. The jitter estimate is kept; the transit reference is not, since the
    /// restarted sender's timestamps bear no relation to the old ones.
    private mutating func restart(at sequenceNumber: UInt16) {
        extendedBaseSequenceNumber = Int64(sequenceNumber)
        extendedMaximumSequenceNumber = Int64(sequenceNumber)
        receivedWindow = 1
        restartCandidateSequenceNumber = nil
        packetsReceived = 0
        expectedAtLastReport = 0
        receivedAtLastReport = 0
        previousTransit = nil
    }

    /// Shifts the received window as the highest sequence number moves forward.
    private mutating func advanceWindow(by distance: Int) {
        receivedWindow = distance >= Self.windowSize ? 0 : receivedWindow << distance
    }
}
