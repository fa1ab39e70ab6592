import CSocketShims

/// An IPv4 address and UDP port in host byte order; compared as one 64-bit key on the hot path.
public struct IPv4Endpoint: Sendable, Hashable, CustomStringConvertible {
    public var ip: UInt32
    public var port: UInt16

    public init(ip: UInt32, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// Parses dotted-quad text; nil when it is not an IPv4 address.
    public init?(host: String, port: Int) {
        guard (1...65535).contains(port) else { return nil }
        var parsed: UInt32 = 0
        guard pkr_ipv4_parse(host, &parsed) == 0 else { return nil }
        self.ip = parsed
        self.port = UInt16(port)
    }

    /// The endpoint packed into one integer, never 0 for a real endpoint.
    var key: UInt64 { UInt64(ip) << 16 | UInt64(port) }

    /// Dotted-quad text.
    public var host: String { "\(ip >> 24).\((ip >> 16) & 0xFF).\((ip >> 8) & 0xFF).\(ip & 0xFF)" }

    public var description: String { "\(host):\(port)" }
}
