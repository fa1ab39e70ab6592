/// Extends 32-bit RTP timestamps to 64 bits by counting wrap-arounds.
///
/// Each timestamp is placed at the position nearest to the previously unwrapped one, so
/// reordered packets (and B-frames, whose timestamps go backwards) unwrap correctly.
/// The first timestamp maps to itself; an older one may map below zero.
public struct TimestampUnwrapper: Sendable, Equatable {
    /// The most recently returned value, nil before the first call.
    public private(set) var lastUnwrapped: Int64?

    /// Creates an unwrapper that has seen nothing yet.
    public init() {
        lastUnwrapped = nil
    }

    /// The 64-bit extension of `timestamp`.
    public mutating func unwrap(_ timestamp: UInt32) -> Int64 {
        let value = peek(timestamp)
        lastUnwrapped = value
        return value
    }

    /// The value `unwrap` would return, without updating the state.
    public func peek(_ timestamp: UInt32) -> Int64 {
        guard let last = lastUnwrapped else { return Int64(timestamp) }
        let lastLow = UInt32(truncatingIfNeeded: last)
        return last + RTPTimestamp.distance(from: lastLow, to: timestamp)
    }

    /// Forgets all history, for example after an SSRC change.
    public mutating func reset() {
        lastUnwrapped = nil
    }
}
