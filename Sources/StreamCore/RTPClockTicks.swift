/// Conversion from wall-clock milliseconds to RTP clock ticks.
enum RTPClockTicks {
    /// The number of ticks of a `clockRate` Hz clock in `milliseconds`, reduced modulo 2^32 the
    /// way RTP timestamps are.
    ///
    /// Whole seconds and the leftover milliseconds are converted separately so the product never
    /// overflows, however large the elapsed time, and the result is still the exact floor of
    /// `milliseconds * clockRate / 1000` modulo 2^32. Negative durations count as zero.
    @inline(__always)
    static func ticks(milliseconds: Int64, clockRate: UInt32) -> UInt32 {
        guard milliseconds > 0 else { return 0 }
        let wholeSeconds = UInt64(milliseconds / 1000)
        let leftoverMilliseconds = UInt64(milliseconds % 1000)
        let fromSeconds = UInt32(truncatingIfNeeded: wholeSeconds) &* clockRate
        let fromLeftover = UInt32(truncatingIfNeeded: leftoverMilliseconds * UInt64(clockRate) / 1000)
        return fromSeconds &+ fromLeftover
    }
}
