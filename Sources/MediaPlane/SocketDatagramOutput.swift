import CSocketShims

/// Sends the media core's datagrams on the transports' own sockets, or on the shard's WebRTC
/// socket for WebRTC transports: one `sendmmsg` per transport and batch, with each run of
/// equal-size datagrams as one UDP_SEGMENT message when segmentation offload is on.
final class SocketDatagramOutput: DatagramOutput {
    /// The shard's WebRTC socket, shared by its WebRTC transports, or its send-only twin; -1 when WebRTC
    /// is off.
    let webRTCFD: Int32
    /// Whether batches leave with UDP generic segmentation offload.
    let segmented: Bool
    /// Whether a plain transport's sockets are connected to its peer once it is fixed
    /// (``MediaPlaneConfiguration/connectedSockets`` resolved).
    let connectsPlainPeers: Bool

    init(webRTCFD: Int32, segmented: Bool, connectsPlainPeers: Bool = false) {
        self.webRTCFD = webRTCFD
        self.segmented = segmented
        self.connectsPlainPeers = connectsPlainPeers
    }

    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int {
        let fd = transport.sharesSocket ? webRTCFD : transport.sendFD
        var tally = pkr_send_tally()
        let sent =
            segmented
            ? pkr_batch_send_segmented(fd, transport.sendBatch, UInt32(count), &tally)
            : pkr_batch_send_tallied(fd, transport.sendBatch, UInt32(count), &tally)
        counters.sendCalls &+= UInt64(tally.calls)
        counters.sendMessages &+= UInt64(tally.messages)
        counters.segmentationFallbacks &+= UInt64(tally.fallbacks)
        if tally.failed > 0 { counters.drop(.sendFailed, count: UInt64(tally.failed)) }
        return Int(sent)
    }

    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: IPv4Endpoint) -> Bool {
        guard let base = datagram.baseAddress else { return false }
        return pkr_udp_send(webRTCFD, base, UInt32(datagram.count), endpoint.ip, endpoint.port) > 0
    }

    /// Connects a plain transport's sockets to its peer. Only plain ones: an SRTP transport also
    /// takes authenticated RTCP from a second address (RTP port + 1 senders), which a connected
    /// socket would never see. A transport whose sockets refuse goes on unconnected.
    func peerFixed(on transport: TransportState) {
        guard connectsPlainPeers, transport.isPlain, !transport.sharesSocket, transport.remoteKey != 0 else { return }
        if pkr_udp_connect_peer(transport.fd, transport.sendFD, transport.remote.ip, transport.remote.port) == 0 {
            pkr_batch_send_connected(transport.sendBatch)
        }
    }
}
