import CSocketShims

#if canImport(Glibc)
    import Glibc
    import SecureTransport
#endif

extension MediaEndpoint {
    /// Protects (for SRTP) and sends `packets` in one `sendmmsg` with UDP generic segmentation
    /// offload, as a sender that batches a frame does: each run of equal-size packets (the last
    /// may be shorter) leaves as one message, which the kernel cuts into datagrams (or, towards
    /// a socket with receive offload on the same host, delivers whole).
    public func sendSegmented(_ packets: [OutgoingRTPPacket]) throws(MediaEndpointError) {
        guard !packets.isEmpty else { return }
        var datagrams: [[UInt8]] = []
        for packet in packets {
            datagrams.append(try protectBytes(packet.serialized(reservingCapacity: profile?.maximumTrailerLength ?? 0), rtcp: false))
        }
        let slotSize = 2048
        guard let batch = pkr_batch_create(UInt32(datagrams.count), UInt32(slotSize)) else { throw .sendFailed(ENOMEM) }
        defer { pkr_batch_destroy(batch) }
        for (index, datagram) in datagrams.enumerated() {
            guard datagram.count <= slotSize, let slot = pkr_batch_buffer(batch, UInt32(index)) else { throw .sendFailed(EMSGSIZE) }
            datagram.withUnsafeBytes { slot.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: datagram.count) }
            pkr_batch_prepare(batch, UInt32(index), UInt32(datagram.count), relayIP, UInt16(relayPort))
        }
        var tally = pkr_send_tally()
        let sent = pkr_batch_send_segmented(fd, batch, UInt32(datagrams.count), &tally)
        // Fewer sent: the socket's buffer was full.
        guard sent == Int32(datagrams.count) else { throw .sendFailed(EAGAIN) }
    }
}
