/// Counts received, lost, duplicated and reordered packets of one RTP stream from its 16-bit
/// sequence numbers, as a receiver does (RFC 3550 appendix A.3): numbers are extended across
/// wrap-around, loss is expected minus received, and a packet that arrives late (reordered or
/// retransmitted after a NACK) fills its gap instead of counting twice.
///
/// A window of the most recent ``windowSize`` numbers remembers which arrived, so duplicates
/// within it are recognised; anything older is reported as ``SequenceArrival/tooOld`` and not
/// counted.
public struct SequenceLossCounter: Sendable {
    /// How many recent sequence numbers are remembered.
    public static let windowSize: Int64 = 4096

    /// Distinct packets received.
    public private(set) var received: UInt64 = 0
    /// Packets received again after being counted.
    public private(set) var duplicates: UInt64 = 0
    /// Packets that arrived after a higher number (reordering or retransmission).
    public private(set) var late: UInt64 = 0
    /// Packets too old for the window.
    public private(set) var tooOld: UInt64 = 0
    /// The lowest and highest extended sequence numbers seen; nil before the first packet.
    public private(set) var base: Int64?
    public private(set) var highest: Int64 = 0
    private var seen = [UInt64](repeating: 0, count: Int(SequenceLossCounter.windowSize / 64))

    public init() {}

    /// Packets the stream should have delivered so far: from the lowest to the highest number.
    public var expected: UInt64 {
        guard let base else { return 0 }
        return UInt64(highest - base + 1)
    }

    /// Packets expected but not (yet) received.
    public var lost: UInt64 { expected > received ? expected - received : 0 }

    /// Lost packets as a fraction of the expected ones (0 when nothing was expected).
    public var lossFraction: Double { expected == 0 ? 0 : Double(lost) / Double(expected) }

    /// Extends a 16-bit number to the extended number closest to the highest seen.
    public func extend(_ sequenceNumber: UInt16) -> Int64 {
        guard base != nil else { return Int64(sequenceNumber) }
        let delta = Int16(bitPattern: sequenceNumber &- UInt16(truncatingIfNeeded: highest))
        return highest + Int64(delta)
    }

    /// Whether the extended number `extended` has arrived (false when outside the window).
    public func hasReceived(_ extended: Int64) -> Bool {
        guard base != nil, extended <= highest, highest - extended < Self.windowSize else { return false }
        return bit(extended)
    }

    /// Records one packet's sequence number.
    @discardableResult
    public mutating func record(_ sequenceNumber: UInt16) -> SequenceArrival {
        guard let currentBase = base else {
            let extended = Int64(sequenceNumber)
            base = extended
            highest = extended
            setBit(extended)
            received = 1
            return .first
        }
        let extended = extend(sequenceNumber)
        if extended > highest {
            let gap = extended - highest - 1
            if gap >= Self.windowSize {
                for index in seen.indices { seen[index] = 0 }
            } else {
                var number = highest + 1
                while number < extended {
                    clearBit(number)
                    number += 1
                }
            }
            let missing: ClosedRange<Int64>? = gap > 0 ? (highest + 1)...(extended - 1) : nil
            highest = extended
            setBit(extended)
            received += 1
            return .advanced(missing: missing)
        }
        if highest - extended >= Self.windowSize {
            tooOld += 1
            return .tooOld
        }
        if extended < currentBase {
            // Earlier than the first packet (reordered at the start): the stream began sooner.
            var number = extended + 1
            while number < currentBase {
                clearBit(number)
                number += 1
            }
            base = extended
            setBit(extended)
            received += 1
            late += 1
            return .late
        }
        if bit(extended) {
            duplicates += 1
            return .duplicate
        }
        setBit(extended)
        received += 1
        late += 1
        return .late
    }

    private func slot(_ extended: Int64) -> (Int, UInt64) {
        let position = Int(((extended % Self.windowSize) + Self.windowSize) % Self.windowSize)
        return (position >> 6, UInt64(1) << UInt64(position & 63))
    }

    private func bit(_ extended: Int64) -> Bool {
        let (word, mask) = slot(extended)
        return seen[word] & mask != 0
    }

    private mutating func setBit(_ extended: Int64) {
        let (word, mask) = slot(extended)
        seen[word] |= mask
    }

    private mutating func clearBit(_ extended: Int64) {
        let (word, mask) = slot(extended)
        seen[word] &= ~mask
    }
}
