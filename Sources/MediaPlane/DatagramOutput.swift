import RTPWire

/// Where the media core's queued datagrams leave. The shell sends them with `sendmmsg`; tests
/// keep them to look at. Called once per batch, never once per packet.
protocol DatagramOutput: AnyObject {
    /// Sends the first `count` datagrams queued in `transport`'s send batch, in order; returns
    /// how many left (fewer when the socket's buffer was full), and counts the system calls and
    /// kernel messages it took in `counters`.
    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int

    /// Sends one datagram from the shard's WebRTC socket, or down the ICE-TCP connection the
    /// endpoint names (STUN answers); whether it left.
    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: PeerEndpoint) -> Bool

    /// `transport`'s peer address is fixed for good (given at connection, or latched).
    func peerFixed(on transport: TransportState)

    /// The address a STUN answer to `endpoint` maps (XOR-MAPPED-ADDRESS); nil when the endpoint
    /// no longer names a peer (its connection closed, its IPv6 entry went to another).
    func stunAddress(of endpoint: PeerEndpoint) -> STUNAddress?
}

extension DatagramOutput {
    func stunAddress(of endpoint: PeerEndpoint) -> STUNAddress? { STUNAddress(ipv4: endpoint.ip, port: endpoint.port) }

    /// `address:port` of the peer an endpoint names, for reports (`[address]:port` for IPv6).
    func describe(_ endpoint: PeerEndpoint) -> String { stunAddress(of: endpoint)?.description ?? endpoint.description }
}
