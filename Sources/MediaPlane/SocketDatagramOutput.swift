import CSocketShims
import RTPWire

/// Sends the media core's datagrams on the transports' own sockets, or on the shard's WebRTC
/// socket for WebRTC transports: one `sendmmsg` per transport and batch, with each run of
/// equal-size datagrams as one UDP_SEGMENT message when segmentation offload is on. A WebRTC
/// transport whose client came over ICE-TCP sends its batch framed on that connection instead,
/// with one `send`; one whose client is on IPv6 sends it on the shard's IPv6 socket, every
/// message to the peer its ``IPv6Peers`` entry holds.
final class SocketDatagramOutput: DatagramOutput {
    /// The shard's WebRTC socket, shared by its WebRTC transports, or its send-only twin; -1 when WebRTC
    /// is off.
    let webRTCFD: Int32
    /// Whether batches leave with UDP generic segmentation offload.
    let segmented: Bool
    /// Whether a plain transport's sockets are connected to its peer once it is fixed
    /// (``MediaPlaneConfiguration/connectedSockets`` resolved).
    let connectsPlainPeers: Bool
    /// Whether an SRTP transport gets a connected reader and a connected twin once its peer is
    /// fixed (``MediaPlaneConfiguration/connectedSockets`` with send-only twins, where the kernel
    /// steers three sockets on a port as the relay needs).
    let connectsSecurePeers: Bool
    /// The epoll set a connected reader joins, under its transport's ``MediaShell/connectedReaderToken(of:)``.
    let epollFD: Int32
    /// The receive buffer a connected reader gets, as the transport's own socket has.
    let receiveBufferBytes: Int32
    /// Whether a connected reader takes coalesced datagrams (UDP_GRO), as the transport's own socket does.
    let receivesCoalesced: Bool
    /// The shard's ICE-TCP connections: a WebRTC transport whose client came over TCP sends there.
    var streams: StreamConnections?
    /// The shard's IPv6 WebRTC socket, or -1, and the peers its endpoints name.
    var webRTC6FD: Int32 = -1
    var ipv6Peers: IPv6Peers?

    init(
        webRTCFD: Int32, segmented: Bool, connectsPlainPeers: Bool = false, connectsSecurePeers: Bool = false, epollFD: Int32 = -1,
        receiveBufferBytes: Int32 = 0,
        receivesCoalesced: Bool = false
    ) {
        self.webRTCFD = webRTCFD
        self.segmented = segmented
        self.connectsPlainPeers = connectsPlainPeers
        self.connectsSecurePeers = connectsSecurePeers && epollFD >= 0
        self.epollFD = epollFD
        self.receiveBufferBytes = receiveBufferBytes
        self.receivesCoalesced = receivesCoalesced
    }

    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int {
        if transport.remote.isStream {
            // Framed into the connection's buffer and written in one call; what does not fit is
            // dropped, as a full UDP socket buffer drops it.
            guard let streams else { return 0 }
            counters.sendCalls &+= 1
            let queued = streams.sendBatch(transport.sendBatch, count: count, to: transport.remote)
            counters.sendMessages &+= UInt64(queued)
            return queued
        }
        var tally = pkr_send_tally()
        let sent: Int32
        if transport.remote.isIPv6Datagram {
            // The entry may have gone to another peer since (the transport's peer left and the
            // table filled): nothing goes to the newcomer.
            guard let (address, port) = ipv6Peers?.peer(of: transport.remote) else { return 0 }
            sent = pkr_batch_send6(webRTC6FD, transport.sendBatch, UInt32(count), address.high, address.low, port, segmented ? 1 : 0, &tally)
        } else {
            let fd = transport.sharesSocket ? webRTCFD : transport.sendFD
            sent =
                segmented
                ? pkr_batch_send_segmented(fd, transport.sendBatch, UInt32(count), &tally)
                : pkr_batch_send_tallied(fd, transport.sendBatch, UInt32(count), &tally)
        }
        counters.sendCalls &+= UInt64(tally.calls)
        counters.sendMessages &+= UInt64(tally.messages)
        counters.segmentationFallbacks &+= UInt64(tally.fallbacks)
        if tally.failed > 0 { counters.drop(.sendFailed, count: UInt64(tally.failed)) }
        return Int(sent)
    }

    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: PeerEndpoint) -> Bool {
        if endpoint.isStream { return streams?.send(datagram, to: endpoint) ?? false }
        guard let base = datagram.baseAddress else { return false }
        if endpoint.isIPv6Datagram {
            guard let (address, port) = ipv6Peers?.peer(of: endpoint) else { return false }
            return pkr_udp_send6(webRTC6FD, base, UInt32(datagram.count), address.high, address.low, port) > 0
        }
        return pkr_udp_send(webRTCFD, base, UInt32(datagram.count), endpoint.ip, endpoint.port) > 0
    }

    func stunAddress(of endpoint: PeerEndpoint) -> STUNAddress? {
        if endpoint.isStream { return streams?.stunAddress(of: endpoint) }
        if endpoint.isIPv6Datagram {
            guard let (address, port) = ipv6Peers?.peer(of: endpoint) else { return nil }
            return STUNAddress(ipv6High: address.high, low: address.low, port: port)
        }
        return STUNAddress(ipv4: endpoint.ip, port: endpoint.port)
    }

    /// Connects a transport's sending socket to its peer, and the socket the peer's datagrams
    /// arrive on. A plain transport connects its own socket: it hears nobody else. An SRTP
    /// transport also takes authenticated RTCP from a second address (RTP port + 1 senders), so
    /// its own socket stays unconnected for them and a third socket on its port, connected, hears
    /// the peer. A transport whose sockets refuse goes on unconnected.
    func peerFixed(on transport: TransportState) {
        guard !transport.sharesSocket, transport.remoteKey != 0 else { return }
        if transport.isPlain {
            guard connectsPlainPeers else { return }
            if pkr_udp_connect_peer(transport.fd, transport.sendFD, transport.remote.ip, transport.remote.port) == 0 {
                pkr_batch_send_connected(transport.sendBatch)
            }
            return
        }
        guard connectsSecurePeers, transport.sendFD != transport.fd, transport.connectedReaderFD < 0 else { return }
        let reader = pkr_udp_open_connected_reader(transport.fd, transport.sendFD, transport.remote.ip, transport.remote.port, receiveBufferBytes)
        guard reader >= 0 else { return }
        if receivesCoalesced { _ = pkr_udp_enable_receive_offload(reader) }
        guard pkr_epoll_add(epollFD, reader, MediaShell.connectedReaderToken(of: transport.id)) == 0 else {
            // Nobody would read the peer's datagrams: back to one unconnected socket hearing all.
            _ = pkr_close(reader)
            _ = pkr_udp_disconnect(transport.sendFD)
            return
        }
        transport.connectedReaderFD = reader
        transport.connectedReaderPeer = transport.remote
        transport.connectedReaderSettling = true
        pkr_batch_send_connected(transport.sendBatch)
    }
}
