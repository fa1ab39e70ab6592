import CSocketShims
import RTPWire
import SecureTransport
import StreamCore

extension MediaCore {
    /// The next free send slot of a transport, flushing its queue first when it is full (past the
    /// pacer when it would keep the whole queue back: pacing spreads at most a queue's worth).
    @inline(__always)
    func reserveSlot(on transport: TransportState) -> UnsafeMutableRawPointer {
        if transport.pending == transport.slotCount {
            flush(transport)
            if transport.pending == transport.slotCount { flush(transport, paced: false) }
        }
        return transport.sendLayout.buffer(at: transport.pending)
    }

    /// Queues the slot reserved last, `length` bytes long, for the transport's peer.
    @inline(__always)
    func commitSlot(on transport: TransportState, length: Int) {
        transport.sendLayout.prepare(at: transport.pending, length: length, to: transport.remote)
        noteQueued(length: length, on: transport)
        markQueued(transport)
    }

    /// Queues the slot reserved last as its first `headLength` bytes followed by `tailLength`
    /// bytes of the receive batch at `tail`, which the shell sends before it reads again.
    @inline(__always)
    func commitSplitSlot(on transport: TransportState, headLength: Int, tail: UnsafeRawPointer, tailLength: Int) {
        transport.sendLayout.prepareSplit(at: transport.pending, headLength: headLength, tail: tail, tailLength: tailLength, to: transport.remote)
        queuedFromReceiveBatch = true
        noteQueued(length: headLength + tailLength, on: transport)
        markQueued(transport)
    }

    /// Counts the message just prepared and lists the transport for the next flush.
    @inline(__always)
    func markQueued(_ transport: TransportState) {
        transport.pending += 1
        if !transport.flushListed {
            transport.flushListed = true
            flushList.append(transport)
        }
    }

    /// Copies an RTP packet into a send slot with new numbers, protects it and queues it.
    /// When the packet lies in the shell's receive batch (`fromReceiveBatch`), only its head is
    /// copied: a plain subscriber's datagram sends the rest from where it lies, and an SRTP
    /// subscriber's seal (on OpenSSL) reads the rest from there (a 1200-byte copy per subscriber saved either
    /// way). Packets anywhere else (a link's ring, the retransmission buffer) may be overwritten
    /// before the flush and are copied whole.
    func sendRTP(
        _ packet: UnsafeRawBufferPointer, to transport: TransportState, ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32,
        payloadType: UInt8 = SinkState.keepPayloadType, vp8 sink: SinkState? = nil, fields: VP8DescriptorFields? = nil, payloadOffset: Int = 0,
        fromReceiveBatch: Bool = false, padding choice: SegmentPaddingChoice = .none
    ) -> Bool {
        guard packet.count <= Self.maximumPacketSize, let base = packet.baseAddress else {
            counters.drop(.oversized)
            return false
        }
        guard transport.isPlain || transport.outbound != nil else {
            counters.drop(.sinkNotConnected)
            return false
        }
        let slot = reserveSlot(on: transport)
        // A padded packet is copied whole: its padding follows the payload in the slot.
        let padding = padding(choice, plainLength: packet.count, firstByte: base.load(as: UInt8.self), on: transport)
        let copied =
            fromReceiveBatch && padding == 0
            ? Self.headLength(of: packet.count, payloadOffset: payloadOffset, rewritesVP8: sink != nil, on: transport) : packet.count
        slot.copyMemory(from: base, byteCount: copied)
        if payloadType != SinkState.keepPayloadType { RTPHeaderWriter.setPayloadType(payloadType, in: slot) }
        if let sink, let fields, payloadOffset > 0, payloadOffset < copied {
            sink.vp8.rewrite(
                generation: sink.generation, payload: UnsafeMutableRawBufferPointer(start: slot + payloadOffset, count: copied - payloadOffset), fields: fields)
        }
        RTPHeaderWriter.setSSRC(ssrc, in: slot)
        RTPHeaderWriter.setSequenceNumber(sequenceNumber, in: slot)
        RTPHeaderWriter.setTimestamp(timestamp, in: slot)
        guard copied == packet.count else {
            if transport.outboundReference != nil {
                return commitSealedSplit(on: transport, slot: slot, headLength: copied, tail: base + copied, tailLength: packet.count - copied)
            }
            commitSplitSlot(on: transport, headLength: copied, tail: base + copied, tailLength: packet.count - copied)
            return true
        }
        return commitRTP(on: transport, slot: slot, length: packet.count, padding: padding)
    }

    /// How much of a packet from the receive batch is copied into a send slot, the rest being
    /// sent (plain) or sealed (SRTP on OpenSSL) from where it lies: the header the relay
    /// rewrites (the fixed 12 bytes for a plain packet; for a sealed one all of it, CSRCs and
    /// extension included, since it is authenticated: `payloadOffset`), and for VP8 the payload
    /// descriptor too (at most 6 bytes; 16 are taken). Packets whose rest would be short are
    /// copied whole, as are packets for SRTP sessions on libsrtp (which protects only in place),
    /// and sealed packets whose header length the caller did not give.
    @inline(__always)
    static func headLength(of packetLength: Int, payloadOffset: Int, rewritesVP8: Bool, on transport: TransportState) -> Int {
        let head: Int
        if transport.outboundReference != nil {
            guard transport.sealsTailInPlace, payloadOffset > 0 else { return packetLength }
            head = payloadOffset + (rewritesVP8 ? vp8DescriptorSpan : 0)
        } else {
            head = rewritesVP8 ? payloadOffset + vp8DescriptorSpan : RTPHeader.fixedHeaderLength
        }
        return packetLength - head >= minimumBorrowedBytes ? head : packetLength
    }

    /// Seals a packet whose head is in the reserved slot and whose tail lies in the receive
    /// batch, writing the whole SRTP packet into the slot, and queues it.
    @inline(__always)
    func commitSealedSplit(on transport: TransportState, slot: UnsafeMutableRawPointer, headLength: Int, tail: UnsafeRawPointer, tailLength: Int) -> Bool {
        var length = 0
        guard let outbound = transport.outboundReference,
            outbound._withUnsafeGuaranteedRef({
                $0.protectRTP(slot, headLength: headLength, tail: tail, tailLength: tailLength, length: &length, capacity: transport.slotCapacity)
            }) == .ok
        else {
            counters.drop(.protectFailed)
            return false
        }
        commitSlot(on: transport, length: length)
        return true
    }

    /// The bytes of a VP8 payload copied into the slot with the header, to hold the descriptor.
    static let vp8DescriptorSpan = 16
    /// The shortest rest of a packet worth sending from where it lies.
    static let minimumBorrowedBytes = 256

    /// ``sendRTP(_:to:ssrc:sequenceNumber:timestamp:)`` for a WebRTC subscriber: the publisher's
    /// header extensions are left out (their ids mean other things in the subscriber's SDP); an
    /// audio level, when the packet carried one, is written under the subscriber's id, and a
    /// transport-wide sequence number when the transport stamps them.
    func sendRTPRewritingExtensions(
        _ packet: UnsafeRawBufferPointer, header: RTPHeader, audioLevel: (level: UInt8, voiceActivity: Bool)?,
        to transport: TransportState, ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32, payloadType: UInt8 = SinkState.keepPayloadType,
        vp8 sink: SinkState? = nil, fields: VP8DescriptorFields? = nil, fromReceiveBatch: Bool = false, padding choice: SegmentPaddingChoice = .none
    ) -> Bool {
        let stamps = transport.sentSequenceExtensionId != 0
        guard header.hasExtension || audioLevel != nil || stamps else {
            return sendRTP(
                packet, to: transport, ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: payloadType,
                vp8: sink, fields: fields, payloadOffset: header.payloadOffset, fromReceiveBatch: fromReceiveBatch, padding: choice)
        }
        let fixedLength = RTPHeader.fixedHeaderLength + 4 * header.csrcCount
        let extensionLength = Self.subscriberExtensionLength(writesLevel: audioLevel != nil && transport.audioLevelExtensionId != 0, writesNumber: stamps)
        let tailLength = packet.count - header.payloadOffset
        let length = fixedLength + extensionLength + tailLength
        guard length <= Self.maximumPacketSize, tailLength >= 0, let base = packet.baseAddress else {
            counters.drop(.oversized)
            return false
        }
        guard transport.isPlain || transport.outbound != nil else {
            counters.drop(.sinkNotConnected)
            return false
        }
        let slot = reserveSlot(on: transport)
        let padding = padding(choice, plainLength: length, firstByte: base.load(as: UInt8.self), on: transport)
        slot.copyMemory(from: base, byteCount: fixedLength)
        if extensionLength > 0 {
            slot.storeBytes(of: slot.load(fromByteOffset: 0, as: UInt8.self) | 0x10, toByteOffset: 0, as: UInt8.self)
            Self.writeSubscriberExtensions(
                at: slot + fixedLength, audioLevelId: transport.audioLevelExtensionId, audioLevel: audioLevel,
                transportWideId: transport.sentSequenceExtensionId,
                transportWide: stamps ? nextTransportWideSequence(bytes: length + padding, on: transport) : nil)
        } else {
            slot.storeBytes(of: slot.load(fromByteOffset: 0, as: UInt8.self) & ~0x10, toByteOffset: 0, as: UInt8.self)
        }
        // From the receive batch, a seal on OpenSSL reads the payload where it lies: only the VP8
        // descriptor, which is rewritten, is copied.
        let borrowsTail =
            fromReceiveBatch && padding == 0 && transport.sealsTailInPlace
            && tailLength - (sink == nil ? 0 : Self.vp8DescriptorSpan) >= Self.minimumBorrowedBytes
        let copiedTail = borrowsTail ? (sink == nil ? 0 : Self.vp8DescriptorSpan) : tailLength
        let headLength = fixedLength + extensionLength + copiedTail
        if copiedTail > 0 { (slot + fixedLength + extensionLength).copyMemory(from: base + header.payloadOffset, byteCount: copiedTail) }
        if let sink, let fields, header.payloadLength > 0 {
            sink.vp8.rewrite(
                generation: sink.generation,
                payload: UnsafeMutableRawBufferPointer(start: slot + fixedLength + extensionLength, count: min(header.payloadLength, copiedTail)),
                fields: fields)
        }
        if payloadType != SinkState.keepPayloadType { RTPHeaderWriter.setPayloadType(payloadType, in: slot) }
        RTPHeaderWriter.setSSRC(ssrc, in: slot)
        RTPHeaderWriter.setSequenceNumber(sequenceNumber, in: slot)
        RTPHeaderWriter.setTimestamp(timestamp, in: slot)
        guard headLength == length else {
            return commitSealedSplit(
                on: transport, slot: slot, headLength: headLength, tail: base + header.payloadOffset + copiedTail, tailLength: length - headLength)
        }
        return commitRTP(on: transport, slot: slot, length: length, padding: padding)
    }

    /// A retransmission on the sink's RFC 4588 stream: the original's fixed header (no padding,
    /// and no header extension but a transport-wide number when the transport stamps them) with
    /// the stream's SSRC, payload type and next sequence number, then the original sequence
    /// number as the subscriber knew it, then the payload as first sent. Its length before
    /// protection, or nil (counted) when it could not go.
    @discardableResult
    func sendRTX(_ packet: UnsafeRawBufferPointer, header: RTPHeader, to sink: SinkState, originalSequenceNumber: UInt16, timestamp: UInt32) -> Int? {
        let transport = sink.transport
        let headerLength = RTPHeader.fixedHeaderLength + 4 * header.csrcCount
        let extensionLength = Self.subscriberExtensionLength(writesLevel: false, writesNumber: transport.sentSequenceExtensionId != 0)
        let fixedLength = headerLength + extensionLength
        let length = fixedLength + 2 + header.payloadLength
        guard length <= Self.maximumPacketSize, let base = packet.baseAddress else {
            counters.drop(.oversized)
            return nil
        }
        guard transport.isPlain || transport.outbound != nil else {
            counters.drop(.sinkNotConnected)
            return nil
        }
        let slot = reserveSlot(on: transport)
        slot.copyMemory(from: base, byteCount: headerLength)
        // Neither the publisher's extensions nor its padding go along.
        slot.storeBytes(of: slot.load(fromByteOffset: 0, as: UInt8.self) & ~0x30, toByteOffset: 0, as: UInt8.self)
        if extensionLength > 0 {
            slot.storeBytes(of: slot.load(fromByteOffset: 0, as: UInt8.self) | 0x10, toByteOffset: 0, as: UInt8.self)
            Self.writeSubscriberExtensions(
                at: slot + headerLength, audioLevelId: 0, audioLevel: nil, transportWideId: transport.sentSequenceExtensionId,
                transportWide: nextTransportWideSequence(bytes: length, on: transport))
        }
        slot.storeBytes(of: UInt8(truncatingIfNeeded: originalSequenceNumber >> 8), toByteOffset: fixedLength, as: UInt8.self)
        slot.storeBytes(of: UInt8(truncatingIfNeeded: originalSequenceNumber), toByteOffset: fixedLength + 1, as: UInt8.self)
        if header.payloadLength > 0 {
            let payload = slot + fixedLength + 2
            payload.copyMemory(from: base + header.payloadOffset, byteCount: header.payloadLength)
            if sink.sendPath.rewritesVP8 {
                sink.vp8.rewrite(generation: sink.generation, payload: UnsafeMutableRawBufferPointer(start: payload, count: header.payloadLength))
            }
        }
        RTPHeaderWriter.setPayloadType(sink.rtxPayloadType, in: slot)
        RTPHeaderWriter.setSSRC(sink.rtxSSRC, in: slot)
        RTPHeaderWriter.setSequenceNumber(sink.rtxSequenceNumber, in: slot)
        RTPHeaderWriter.setTimestamp(timestamp, in: slot)
        sink.rtxSequenceNumber &+= 1
        return commitRTP(on: transport, slot: slot, length: length) ? length : nil
    }

    /// Protects an RTP packet already written into the reserved slot and queues it; false (and
    /// counted) when protection fails.
    func commitRTP(on transport: TransportState, slot: UnsafeMutableRawPointer, length plainLength: Int) -> Bool {
        var length = plainLength
        if let outbound = transport.outboundReference {
            guard outbound._withUnsafeGuaranteedRef({ $0.protectRTP(slot, length: &length, capacity: transport.slotCapacity) }) == .ok else {
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
        guard transport.isPlain || transport.outbound != nil else {
            counters.drop(.noOutboundKey)
            return
        }
        if let outbound = transport.outbound {
            guard outbound.protectRTCP(slot, length: &length, capacity: transport.slotCapacity) == .ok else {
                counters.drop(.protectFailed)
                return
            }
        }
        counters.rtcpOut &+= 1
        commitSlot(on: transport, length: length)
    }

    /// Sends every queued datagram, one batch per transport.
    func flushAll() {
        if forwardRunCount > 0 { forwardRun() }
        queuedFromReceiveBatch = false
        guard !flushList.isEmpty else { return }
        for transport in flushList {
            flush(transport)
            transport.flushListed = false
        }
        flushList.removeAll(keepingCapacity: true)
    }

    /// Sends the transport's queue, or as much of it as its pacer lets go now (`paced`); what
    /// is kept back moves to the front of the queue and goes on the timer.
    func flush(_ transport: TransportState, paced: Bool = true) {
        let queued = transport.pending
        guard queued > 0 else { return }
        let count = paced ? pacedCount(on: transport, count: queued) : queued
        transport.pending = 0
        transport.runSegmentSize = 0
        defer { if count < queued { holdBack(from: count, of: queued, on: transport) } }
        guard count > 0 else { return }
        let sent = output.sendQueued(on: transport, count: count, counters: &counters)
        counters.sendBatches &+= 1
        let delivered = max(0, sent)
        for index in 0..<delivered {
            // The prepared length: a segmented send reports lengths per message, not per datagram.
            let bytes = UInt64(transport.sendLayout.preparedLength(at: index))
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
