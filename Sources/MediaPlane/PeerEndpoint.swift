import CSocketShims

/// Where a datagram came from and where an answer goes, compared as one 64-bit key on the hot
/// path: an IPv4 address and port (host byte order), an ICE-TCP connection, or an IPv6 peer.
///
/// A WebRTC client that reached its shard's port over TCP (ICE-TCP) is named by its TCP address
/// and the number of its connection there: two clients, or one client's UDP and TCP paths, are
/// never confused, and what is sent to the endpoint goes down that connection. A client on the
/// shard's IPv6 socket is named by its entry in the shard's table of IPv6 peers
/// (``IPv6Peers``) and that entry's generation, so an endpoint kept after its entry went to
/// another peer no longer matches.
public struct PeerEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The IPv4 address; for an IPv6 peer, its entry's generation.
    public var ip: UInt32
    public var port: UInt16
    /// 0 for IPv4 UDP; an ICE-TCP connection on the shard's WebRTC port, numbered from 1 (below
    /// ``ipv6Flag``); or ``ipv6Flag`` with the entry of an IPv6 peer.
    public var connection: UInt16

    /// Marks `connection` as an IPv6 peer's entry rather than a TCP connection's number.
    public static let ipv6Flag: UInt16 = 0x8000

    public init(ip: UInt32, port: UInt16, connection: UInt16 = 0) {
        self.ip = ip
        self.port = port
        self.connection = connection
    }

    /// Whether the endpoint is a TCP connection (ICE-TCP) rather than a UDP address.
    public var isStream: Bool { connection != 0 && connection & Self.ipv6Flag == 0 }

    /// Whether the endpoint is an IPv6 peer of the shard's IPv6 WebRTC socket (UDP).
    public var isIPv6Datagram: Bool { connection & Self.ipv6Flag != 0 }

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

    /// The endpoint a ``key`` packs.
    init(key: UInt64) {
        self.init(ip: UInt32(truncatingIfNeeded: key >> 16), port: UInt16(truncatingIfNeeded: key), connection: UInt16(truncatingIfNeeded: key >> 48))
    }

    /// Dotted-quad text of an IPv4 endpoint (its shard describes the others).
    public var host: String { "\(ip >> 24).\((ip >> 16) & 0xFF).\((ip >> 8) & 0xFF).\(ip & 0xFF)" }

    public var description: String {
        isIPv6Datagram ? "ipv6-peer-\(connection & ~Self.ipv6Flag)/\(ip):\(port)" : "\(host):\(port)"
    }
}
