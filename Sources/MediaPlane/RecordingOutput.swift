import CSocketShims

/// Keeps every datagram the core sends, instead of a socket: what a subscriber would receive.
/// Tests and the media fuzzing rig (``MediaCoreFuzzRig``) drive cores with it.
final class RecordingOutput: DatagramOutput {
    struct Datagram {
        var transportId: Int
        var destination: PeerEndpoint
        var bytes: [UInt8]
    }

    var datagrams: [Datagram] = []
    /// How many datagrams of each batch the "socket" accepts; nil accepts all.
    var acceptPerBatch: Int?
    /// Whether the shared WebRTC "socket" refuses what is sent on it (a full send buffer).
    var refusesWebRTCSends = false
    var batches = 0

    func sendQueued(on transport: TransportState, count: Int, counters: inout DataPlaneCounters) -> Int {
        batches += 1
        let accepted = min(count, acceptPerBatch ?? count)
        counters.sendCalls &+= 1
        counters.sendMessages &+= UInt64(accepted)
        for index in 0..<accepted {
            let slot = UInt32(index)
            let length = Int(pkr_batch_prepared_length(transport.sendBatch, slot))
            // Gathered now, as the kernel would: a split message's second part lies elsewhere.
            let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                count = Int(pkr_batch_copy_prepared(transport.sendBatch, slot, buffer.baseAddress, UInt32(length)))
            }
            let destination = PeerEndpoint(ip: pkr_batch_source_ip(transport.sendBatch, slot), port: pkr_batch_source_port(transport.sendBatch, slot))
            datagrams.append(Datagram(transportId: transport.id, destination: destination, bytes: bytes))
        }
        return accepted
    }

    func sendFromWebRTCSocket(_ datagram: UnsafeRawBufferPointer, to endpoint: PeerEndpoint) -> Bool {
        if refusesWebRTCSends { return false }
        datagrams.append(Datagram(transportId: -1, destination: endpoint, bytes: Array(datagram)))
        return true
    }

    func peerFixed(on transport: TransportState) {}
}
