/// Wrap-aware comparisons of 32-bit RTP timestamps (RFC 1982 serial number arithmetic).
public enum RTPTimestamp {
    /// Whether `a` comes after `b`, assuming the two are less than half the number space
    /// apart. Timestamps exactly 2^31 apart are not newer than each other.
    public static func isNewer(_ a: UInt32, than b: UInt32) -> Bool {
        distance(from: b, to: a) > 0
    }

    /// How many ticks forward from `from` reach `to`, negative when `to` lies behind,
    /// in -2^31 ... 2^31-1.
    public static func distance(from: UInt32, to: UInt32) -> Int64 {
        Int64(Int32(bitPattern: to &- from))
    }
}
