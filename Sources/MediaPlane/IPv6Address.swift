import CSocketShims

/// An IPv6 address as two 64-bit halves (the big-endian readings of bytes 0-7 and 8-15): how the
/// media plane keeps, compares and hashes IPv6 peers without pointers into C structures.
public struct IPv6Address: Sendable, Hashable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses RFC 4291 text (`::1`, `2001:db8::5`); nil when it is not an IPv6 address. Brackets
    /// and zone indices are refused.
    public init?(_ text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        guard pkr_ipv6_parse(text, &high, &low) == 0 else { return nil }
        self.high = high
        self.low = low
    }

    /// Whether this is `::`, the unspecified address.
    public var isUnspecified: Bool { high == 0 && low == 0 }
}
