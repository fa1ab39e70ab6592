import CSocketShims

/// Sends the media core's datagrams on the transports' own sockets, or on the shared WebRTC
/// socket for WebRTC transports: one `sendmmsg` per transport and batch.
final class SocketDatagramOutput: DatagramOutput {
    /// The one UDP socket every WebRTC transport shares; -1 when WebRTC is off.
    let webRTCFD: Int32

    init(webRTCFD: Int32) {
        self.webRTCFD = webRTCFD
    }

    func sendQueued(on transport: TransportState, count: Int) -> Int {
        Int(pkr_batch_send(transport.sharesSocket ? webRTCFD : transport.fd, transport.sendBatch, UInt32(count)))
    }

    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: IPv4Endpoint) -> Bool {
        guard let base = datagram.baseAddress else { return false }
        return pkr_udp_send(webRTCFD, base, UInt32(datagram.count), endpoint.ip, endpoint.port) > 0
    }
}
