import CSocketShims

/// One shard's WebRTC sockets, all on the shard's port number: UDP (and its send-only twin), the
/// ICE-TCP listener, and with IPv6 on their IPv6 counterparts. -1 where one is not open.
struct ShardSockets: Sendable {
    var udp: Int32 = -1
    /// The send-only twin of `udp`, or -1 (then the shard sends on `udp`).
    var udpSend: Int32 = -1
    var tcp: Int32 = -1
    var udp6: Int32 = -1
    var tcp6: Int32 = -1
    var port = 0

    static let none = ShardSockets()

    /// The socket the shard sends IPv4 datagrams on.
    var sendingUDP: Int32 { udpSend >= 0 ? udpSend : udp }

    /// Every descriptor open, each once.
    var descriptors: [Int32] {
        var all = [udp, tcp, udp6, tcp6].filter { $0 >= 0 }
        if udpSend >= 0, udpSend != udp { all.append(udpSend) }
        return all
    }

    func close() { for fd in descriptors { _ = pkr_close(fd) } }
}
