/// The address family byte of (XOR-)MAPPED-ADDRESS (RFC 8489 section 14.1).
public enum STUNAddressFamily: UInt8, Sendable, Hashable {
    /// A 32-bit IPv4 address.
    case ipv4 = 0x01
    /// A 128-bit IPv6 address.
    case ipv6 = 0x02

    /// Bytes of address that follow the port.
    public var addressLength: Int { self == .ipv4 ? 4 : 16 }
}
