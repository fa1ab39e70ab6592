/// Which of a stream's last 1 024 sequence numbers have arrived, to recognise a packet that
/// arrives again: the network duplicated it, or the sender repaired (or probed with) a packet the
/// relay already had. Forwarding it again would only cost subscribers bandwidth, and an SRTP
/// subscriber would drop it as a replay.
///
/// The window spans as far behind the highest number as ``TrackRewriter`` still maps a late
/// packet (``TrackRewriter/restartDistance``), so no duplicate it would forward goes unnoticed.
/// A number further behind than the window starts the window again there (a restarted sender);
/// one further ahead empties it. Only a number seen since then counts as a duplicate.
public struct ReceivedSequenceWindow: Sendable {
    /// How many sequence numbers, up to the highest, the window remembers.
    public static let size = 1024
    /// One bit per sequence number modulo ``size``, set once it arrived.
    private var bits: InlineArray<16, UInt64> = .init(repeating: 0)
    private var highest: UInt16 = 0
    private var hasStarted = false

    public init() {}

    /// Notes that `sequenceNumber` arrived; false when it already had within the window.
    @inline(__always)
    public mutating func insert(_ sequenceNumber: UInt16) -> Bool {
        let ahead = Int(Int16(bitPattern: sequenceNumber &- highest))
        if hasStarted, ahead <= 0, ahead > -Self.size {
            if contains(sequenceNumber) { return false }
            set(sequenceNumber)
            return true
        }
        if hasStarted, ahead > 0, ahead < Self.size {
            // The numbers skipped were lost so far: their bits still hold a lap ago's arrivals.
            var number = highest
            for _ in 0..<ahead {
                number &+= 1
                clear(number)
            }
        } else {
            bits = .init(repeating: 0)
            hasStarted = true
        }
        highest = sequenceNumber
        set(sequenceNumber)
        return true
    }

    @inline(__always)
    private func contains(_ sequenceNumber: UInt16) -> Bool {
        bits[Int(sequenceNumber >> 6) & 15] & (1 << UInt64(sequenceNumber & 63)) != 0
    }

    @inline(__always)
    private mutating func set(_ sequenceNumber: UInt16) {
        bits[Int(sequenceNumber >> 6) & 15] |= 1 << UInt64(sequenceNumber & 63)
    }

    @inline(__always)
    private mutating func clear(_ sequenceNumber: UInt16) {
        bits[Int(sequenceNumber >> 6) & 15] &= ~(1 << UInt64(sequenceNumber & 63))
    }
}
