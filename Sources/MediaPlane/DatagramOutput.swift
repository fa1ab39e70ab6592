/// Where the media core's queued datagrams leave. The shell sends them with `sendmmsg`; tests
/// keep them to look at. Called once per batch, never once per packet.
protocol DatagramOutput: AnyObject {
    /// Sends the first `count` datagrams queued in `transport`'s send batch, in order; returns
    /// how many left (fewer when the socket's buffer was full), and counts the system calls and
    /// kernel messages it took in `counters`.
    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int

    /// Sends one datagram from the shard's WebRTC socket, or down the ICE-TCP connection the
    /// endpoint names (STUN answers); whether it left.
    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: IPv4Endpoint) -> Bool

    /// `transport`'s peer address is fixed for good (given at connection, or latched).
    func peerFixed(on transport: TransportState)
}
