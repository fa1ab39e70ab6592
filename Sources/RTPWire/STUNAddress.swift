/// An IPv4 or IPv6 address with a UDP port, as STUN carries it; a plain value so it can be
/// compared and stored on the per-packet path.
///
/// The address is held as 128 bits in network order: an IPv6 address fills both halves,
/// an IPv4 address sits in the low 32 bits of `low` with `high` zero.
public struct STUNAddress: Sendable, Hashable {
    /// IPv4 or IPv6.
    public var family: STUNAddressFamily
    /// The UDP port.
    public var port: UInt16
    /// The first 8 bytes of an IPv6 address; 0 for IPv4.
    public var high: UInt64
    /// The last 8 bytes of an IPv6 address, or the IPv4 address in the low 32 bits.
    public var low: UInt64

    /// An IPv4 address (host byte order, so 192.0.2.1 is 0xC0000201) and port.
    public init(ipv4: UInt32, port: UInt16) {
        self.family = .ipv4
        self.port = port
        self.high = 0
        self.low = UInt64(ipv4)
    }

    /// An IPv6 address given as its first and last 8 bytes in network order, and a port.
    public init(ipv6High high: UInt64, low: UInt64, port: UInt16) {
        self.family = .ipv6
        self.port = port
        self.high = high
        self.low = low
    }

    /// The IPv4 address in host byte order; nil for IPv6.
    public var ipv4: UInt32? {
        family == .ipv4 ? UInt32(truncatingIfNeeded: low) : nil
    }
}
