/// Estimates the SRTP packet index (RFC 3711 section 3.3.1: rollover counter and sequence
/// number) of a received stream, to open packets with a transform that leaves the rollover
/// counter to its caller.
///
/// It is kept apart from ``SequenceLossCounter`` because the loss counter starts afresh when the
/// measured period starts, while the sender's rollover counter does not.
public struct RolloverEstimator: Sendable, Hashable {
    /// The highest index accepted so far; nil before the first packet.
    public private(set) var highest: Int64?

    public init() {}

    /// The index of `sequenceNumber`: the one closest to the highest so far. A new stream
    /// starts with rollover counter 0, as a sender does.
    public func index(of sequenceNumber: UInt16) -> Int64 {
        guard let highest else { return Int64(sequenceNumber) }
        return highest + Int64(Int16(bitPattern: sequenceNumber &- UInt16(truncatingIfNeeded: highest)))
    }

    /// The rollover counter of `index`.
    public static func rolloverCounter(of index: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: index >> 16)
    }

    /// Records that the packet with `index` opened (authenticated): later estimates follow it.
    public mutating func accept(_ index: Int64) {
        if index > highest ?? Int64.min { highest = index }
    }
}
