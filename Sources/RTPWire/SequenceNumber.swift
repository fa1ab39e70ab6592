/// Wrap-aware comparisons of 16-bit RTP sequence numbers (RFC 1982 serial number arithmetic).
public enum SequenceNumber {
    /// Whether `a` comes after `b`, assuming the two are less than half the number space
    /// apart. Numbers exactly 32768 apart are not newer than each other.
    public static func isNewer(_ a: UInt16, than b: UInt16) -> Bool {
        distance(from: b, to: a) > 0
    }

    /// How many steps forward from `from` reach `to`, negative when `to` lies behind,
    /// in -32768...32767.
    public static func distance(from: UInt16, to: UInt16) -> Int {
        Int(Int16(bitPattern: to &- from))
    }
}
