import CSocketShims

/// Sends the media core's datagrams on the transports' own sockets, or on the shared WebRTC
/// socket for WebRTC transports: one `sendmmsg` per transport and batch, with each run of
/// equal-size datagrams as one UDP_SEGMENT message when segmentation offload is on.
final class SocketDatagramOutput: DatagramOutput {
    /// The one UDP socket every WebRTC transport shares, or its send-only twin; -1 when WebRTC
    /// is off.
    let webRTCFD: Int32
    /// Whether batches leave with UDP generic segmentation offload.
    let segmented: Bool

    init(webRTCFD: Int32, segmented: Bool) {
        self.webRTCFD = webRTCFD
        self.segmented = segmented
    }

    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int {
        let fd = transport.sharesSocket ? webRTCFD : transport.sendFD
        var tally = pkr_send_tally()
        let sent = segmented
            ? pkr_batch_send_segmented(fd, transport.sendBatch, UInt32(count), &tally)
            : pkr_batch_send_tallied(fd, transport.sendBatch, UInt32(count), &tally)
        counters.sendCalls &+= UInt64(tally.calls)
        counters.sendMessages &+= UInt64(tally.messages)
        counters.segmentationFallbacks &+= UInt64(tally.fallbacks)
        return Int(sent)
    }

    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: IPv4Endpoint) -> Bool {
        guard let base = datagram.baseAddress else { return false }
        return pkr_udp_send(webRTCFD, base, UInt32(datagram.count), endpoint.ip, endpoint.port) > 0
    }
}
