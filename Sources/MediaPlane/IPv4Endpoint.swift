import CSocketShims

/// An IPv4 address and port in host byte order; compared as one 64-bit key on the hot path.
///
/// A WebRTC client that reached its shard's port over TCP (ICE-TCP) is named by its TCP address
/// and the number of its connection there: two clients, or one client's UDP and TCP paths, are
/// never confused, and what is sent to the endpoint goes down that connection.
public struct IPv4Endpoint: Sendable, Hashable, CustomStringConvertible {
    public var ip: UInt32
    public var port: UInt16
    /// 0 for UDP; otherwise the TCP connection on the shard's WebRTC port, numbered from 1.
    public var connection: UInt16

    public init(ip: UInt32, port: UInt16, connection: UInt16 = 0) {
        self.ip = ip
        self.port = port
        self.connection = connection
    }

    /// Whether the endpoint is a TCP connection (ICE-TCP) rather than a UDP address.
    public var isStream: Bool { connection != 0 }

    /// Parses dotted-quad text; nil when it is not an IPv4 address.
    public init?(host: String, port: Int) {
        guard (1...65535).contains(port) else { return nil }
        var parsed: UInt32 = 0
        guard pkr_ipv4_parse(host, &parsed) == 0 else { return nil }
        self.ip = parsed
        self.port = UInt16(port)
        self.connection = 0
    }

    /// The endpoint packed into one integer, never 0 for a real endpoint.
    var key: UInt64 { UInt64(connection) << 48 | UInt64(ip) << 16 | UInt64(port) }

    /// Dotted-quad text.
    public var host: String { "\(ip >> 24).\((ip >> 16) & 0xFF).\((ip >> 8) & 0xFF).\(ip & 0xFF)" }

    public var description: String { "\(host):\(port)" }
}
