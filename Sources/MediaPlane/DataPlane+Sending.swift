import CSocketShims
import RTPWire
import SecureTransport

extension DataPlane {
    /// The next free send slot of a transport, flushing its queue first when it is full.
    @inline(__always)
    func reserveSlot(on transport: TransportState) -> UnsafeMutableRawPointer {
        if transport.pending == transport.slotCount { flush(transport) }
        return UnsafeMutableRawPointer(pkr_batch_buffer(transport.sendBatch, UInt32(transport.pending)))
    }

    /// Queues the slot reserved last, `length` bytes long, for the transport's peer.
    @inline(__always)
    func commitSlot(on transport: TransportState, length: Int) {
        pkr_batch_prepare(transport.sendBatch, UInt32(transport.pending), UInt32(length), transport.remote.ip, transport.remote.port)
        transport.pending += 1
        if !transport.flushListed {
            transport.flushListed = true
            flushList.append(transport)
        }
    }

    /// Copies an RTP packet into a send slot with new numbers, protects it and queues it.
    func sendRTP(_ packet: UnsafeRawBufferPointer, to transport: TransportState, ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32) -> Bool {
        guard packet.count <= Self.maximumPacketSize, let base = packet.baseAddress else { counters.drop(.oversized); return false }
        let slot = reserveSlot(on: transport)
        slot.copyMemory(from: base, byteCount: packet.count)
        RTPHeaderWriter.setSSRC(ssrc, in: slot)
        RTPHeaderWriter.setSequenceNumber(sequenceNumber, in: slot)
        RTPHeaderWriter.setTimestamp(timestamp, in: slot)
        var length = packet.count
        if let outbound = transport.outbound {
            guard outbound.protectRTP(slot, length: &length, capacity: transport.slotCapacity) == .ok else {
                counters.drop(.protectFailed)
                return false
            }
        }
        commitSlot(on: transport, length: length)
        return true
    }

    /// Protects an RTCP packet already written into the reserved slot and queues it.
    func commitRTCP(on transport: TransportState, slot: UnsafeMutableRawPointer, length plainLength: Int) {
        var length = plainLength
        if let outbound = transport.outbound {
            guard outbound.protectRTCP(slot, length: &length, capacity: transport.slotCapacity) == .ok else {
                counters.drop(.protectFailed)
                return
            }
        }
        counters.rtcpOut &+= 1
        commitSlot(on: transport, length: length)
    }

    /// Sends every queued datagram, one sendmmsg run per transport.
    func flushAll() {
        guard !flushList.isEmpty else { return }
        for transport in flushList {
            flush(transport)
            transport.flushListed = false
        }
        flushList.removeAll(keepingCapacity: true)
    }

    func flush(_ transport: TransportState) {
        let count = transport.pending
        guard count > 0 else { return }
        transport.pending = 0
        let sent = Int(pkr_batch_send(transport.fd, transport.sendBatch, UInt32(count)))
        counters.sendBatches &+= 1
        let delivered = max(0, sent)
        for index in 0..<delivered {
            let bytes = UInt64(pkr_batch_length(transport.sendBatch, UInt32(index)))
            counters.bytesOut &+= bytes
            transport.report.bytesOut &+= bytes
        }
        counters.packetsOut &+= UInt64(delivered)
        transport.report.packetsOut &+= UInt64(delivered)
        if delivered < count {
            counters.drops[DropReason.sendBufferFull.rawValue] &+= UInt64(count - delivered)
        }
    }
}
