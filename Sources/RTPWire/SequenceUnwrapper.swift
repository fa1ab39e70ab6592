/// Extends 16-bit RTP sequence numbers to 64 bits by counting wrap-arounds.
///
/// Each number is placed at the position nearest to the previously unwrapped one, so
/// reordered and duplicated packets map to the same value they would have had in order.
/// The first number maps to itself; a packet older than the first may map below zero.
public struct SequenceUnwrapper: Sendable, Equatable {
    /// The most recently returned value, nil before the first call.
    public private(set) var lastUnwrapped: Int64?

    /// Creates an unwrapper that has seen nothing yet.
    public init() {
        lastUnwrapped = nil
    }

    /// The 64-bit extension of `sequenceNumber`.
    public mutating func unwrap(_ sequenceNumber: UInt16) -> Int64 {
        let value = peek(sequenceNumber)
        lastUnwrapped = value
        return value
    }

    /// The value `unwrap` would return, without updating the state.
    public func peek(_ sequenceNumber: UInt16) -> Int64 {
        guard let last = lastUnwrapped else { return Int64(sequenceNumber) }
        let lastLow = UInt16(truncatingIfNeeded: last)
        return last + Int64(SequenceNumber.distance(from: lastLow, to: sequenceNumber))
    }

    /// Forgets all history, for example after an SSRC change.
    public mutating func reset() {
        lastUnwrapped = nil
    }
}
