/// Conversions of 64-bit NTP timestamps (seconds since 1900 in the high 32 bits, binary
/// fraction in the low 32) as used by sender reports and round-trip time estimation.
public enum NTPTime {
    /// Seconds from the NTP epoch (1900) to the Unix epoch (1970).
    public static let unixEpochOffsetSeconds: Int64 = 2_208_988_800

    /// The middle 32 bits of `ntp` (16.16 fixed point seconds), the form report blocks
    /// echo as LSR.
    public static func middle32(_ ntp: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: ntp >> 16)
    }

    /// The NTP timestamp of a wall-clock time given in milliseconds since the Unix epoch
    /// (times before 1970 are taken as 1970).
    public static func fromUnixMilliseconds(_ unixMilliseconds: Int64) -> UInt64 {
        let milliseconds = max(0, unixMilliseconds)
        let seconds = milliseconds / 1000 + unixEpochOffsetSeconds
        let fraction = (UInt64(milliseconds % 1000) << 32) / 1000
        return UInt64(truncatingIfNeeded: seconds) << 32 | fraction
    }

    /// Milliseconds since the Unix epoch of an NTP timestamp, rounded to the nearest.
    ///
    /// NTP seconds wrap in February 2036; following RFC 4330, a clear top bit of the seconds
    /// field is read as the era after that wrap, so the result covers 1968...2104.
    public static func unixMilliseconds(_ ntp: UInt64) -> Int64 {
        var ntpSeconds = Int64(ntp >> 32)
        if ntpSeconds < 0x8000_0000 { ntpSeconds += 1 << 32 }
        let fractionMilliseconds = Int64(((ntp & 0xFFFF_FFFF) * 1000 + 0x8000_0000) >> 32)
        return (ntpSeconds - unixEpochOffsetSeconds) * 1000 + fractionMilliseconds
    }

    /// Milliseconds in a 16.16 fixed point duration such as DLSR or a round-trip time
    /// computed from middle-32 values.
    public static func milliseconds(fromCompact compact: UInt32) -> Int64 {
        (Int64(compact) * 1000) >> 16
    }

    /// A duration in milliseconds as 16.16 fixed point seconds (the DLSR unit), saturating
    /// at the largest value the field can hold.
    public static func compact(fromMilliseconds milliseconds: Int64) -> UInt32 {
        guard milliseconds > 0 else { return 0 }
        // Anything beyond 2^40 ms saturates anyway; capping first keeps the shift exact.
        let value = (min(milliseconds, 1 << 40) << 16) / 1000
        return value > Int64(UInt32.max) ? UInt32.max : UInt32(value)
    }
}
