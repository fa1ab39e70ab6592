import RTPWire
import SecureTransport
import StreamCore

extension MediaCore {
    /// One datagram: demultiplex, check the sender, decrypt, then hand RTP or RTCP on.
    func handleDatagram(on transport: TransportState, buffer: UnsafeMutableRawPointer, length: Int, from endpoint: PeerEndpoint) {
        counters.packetsIn &+= 1
        counters.bytesIn &+= UInt64(length)
        transport.report.packetsIn &+= 1
        transport.report.bytesIn &+= UInt64(length)
        guard length > 0 else {
            counters.drop(.truncated)
            return
        }
        guard length <= Self.maximumPacketSize else {
            counters.drop(.oversized)
            return
        }
        let kind = PacketDemultiplexer.classify(UnsafeRawBufferPointer(start: buffer, count: length))
        guard kind == .rtp || kind == .rtcp else {
            counters.drop(.notRTP)
            return
        }
        guard transport.connected else {
            counters.drop(.notConnected)
            return
        }
        let fromRemote = endpoint.key == transport.remoteKey
        // RTCP may come from a second address (senders such as ffmpeg use RTP port + 1) once it
        // authenticates; on a plain transport only the peer's own address counts.
        let fromRTCPPeer = kind == .rtcp && !transport.isPlain && (transport.rtcpRemoteKey == 0 || endpoint.key == transport.rtcpRemoteKey)
        if transport.remoteKey != 0, !fromRemote, !fromRTCPPeer {
            counters.drop(.unexpectedSource)
            return
        }
        var plainLength = length
        if !transport.isPlain {
            guard let inbound = transport.inbound else {
                counters.drop(.noInboundKey)
                return
            }
            let status = kind == .rtp ? inbound.unprotectRTP(buffer, length: &plainLength) : inbound.unprotectRTCP(buffer, length: &plainLength)
            switch status {
            case .ok: break
            case .authenticationFailed:
                counters.drop(.srtpAuthenticationFailed)
                return
            case .replayed:
                counters.drop(.srtpReplayed)
                return
            case .malformed:
                counters.drop(.srtpMalformed)
                return
            case .failed:
                counters.drop(.srtpOther)
                return
            }
        }
        // The packet authenticated (or, plain, came) from the address the relay sends to.
        if fromRemote, !transport.remoteProven { addressProven(transport) }
        let packet = UnsafeRawBufferPointer(start: buffer, count: plainLength)
        if kind == .rtp {
            guard let header = RTPHeader.parse(packet) else {
                counters.drop(.malformedRTP)
                return
            }
            latchIfNeeded(transport, endpoint)
            // Every authenticated packet crossed the network, whatever becomes of it after.
            if transport.receivedSequenceExtensionId != 0, header.hasExtension {
                recordTransportWideArrival(packet, header: header, wireLength: length, on: transport)
            }
            // RTX SSRCs are distinct from the transport's media SSRCs (publishStream checks it),
            // so one lookup, and none at all on transports without RTX, tells them apart.
            if !transport.rtxSources.isEmpty, let source = transport.rtxSources[header.ssrc] {
                handleRetransmission(buffer, header: header, for: source, on: transport)
                return
            }
            handleRTP(packet, header: header, on: transport)
        } else {
            guard plainLength >= 8 else {
                counters.drop(.malformedRTCP)
                return
            }
            // RTCP does not latch the transport: senders such as ffmpeg send RTCP from another port
            // than RTP, and a sender report before their first RTP packet. It latches its own
            // second address instead, so no other sender can reuse it.
            if !fromRemote, transport.rtcpRemoteKey == 0, !transport.isPlain { transport.rtcpRemoteKey = endpoint.key }
            counters.rtcpIn &+= 1
            // Feedback acts on sinks (retransmissions, keyframe requests): after what came before it.
            if forwardRunCount > 0 { forwardRun() }
            handleRTCP(packet, on: transport)
        }
    }

    /// A connected transport without a known address adopts the sender of the first authenticated
    /// RTP packet, which proves the address by arriving.
    @inline(__always)
    func latchIfNeeded(_ transport: TransportState, _ endpoint: PeerEndpoint) {
        if transport.remoteKey == 0 {
            transport.remoteKey = endpoint.key
            transport.remote = endpoint
            output.peerFixed(on: transport)
            addressProven(transport)
        }
    }

    /// The transport's peer address proved itself: what could not be sent before starts now.
    func addressProven(_ transport: TransportState) {
        transport.remoteProven = true
        guard transport.canSend else { return }
        // Keyframes forwarded before then never reached its subscribers; and its publisher's
        // sources could not be asked for the keyframes their subscribers wait for.
        for sink in transport.sinks.values where sink.isVideo && sink.waitingForKeyframe {
            if let source = sink.source { startKeyframeRequests(for: source) }
        }
        for source in transport.sources.values where source.isVideo && source.hasSinksWaitingForKeyframe {
            // Its repeater may be running for subscribers that waited, asking into the void:
            // ask again at once.
            source.repeater.stop()
            startKeyframeRequests(for: source)
        }
    }

    /// A packet of a publisher's RFC 4588 retransmission stream: the original sequence number
    /// (the first two payload bytes) goes back into the header, which moves up over it, and the
    /// packet continues as the track's own. Padding-only packets (bandwidth probes) end here,
    /// as do packets too short to hold the original sequence number.
    func handleRetransmission(_ buffer: UnsafeMutableRawPointer, header: RTPHeader, for source: SourceState, on transport: TransportState) {
        guard header.payloadType == source.rtxPayloadType else {
            counters.drop(.unexpectedPayloadType)
            return
        }
        counters.retransmissionsReceived &+= 1
        guard
            let original = RTPRetransmission.unwrap(
                buffer, header: header, originalSSRC: source.ssrc, originalPayloadType: source.originalPayloadType)
        else {
            counters.drop(header.payloadLength == 0 ? .paddingOnly : .malformedRTP)
            return
        }
        handleRTP(UnsafeRawBufferPointer(start: buffer + original.offset, count: original.length), header: original.header, on: transport)
    }

    /// An RTP packet from a publisher: find its source, then deliver it.
    func handleRTP(_ packet: UnsafeRawBufferPointer, header: RTPHeader, on transport: TransportState) {
        guard let source = transport.sources[header.ssrc] ?? adoptingSimulcastLayer(packet, header: header, on: transport) else {
            counters.drop(.unknownSSRC)
            return
        }
        deliver(packet, header: header, from: source)
    }

    /// A packet of a source, local or arriving over a link: statistics, retransmission buffer,
    /// every sink, then every link whose remote source mirrors it; not when it is a duplicate.
    func deliver(_ packet: UnsafeRawBufferPointer, header: RTPHeader, from source: SourceState) {
        source.lastMediaMs = nowMs
        // A packet the relay already forwarded (duplicated on the way, or repaired over RTX
        // after it came late, or resent as a bandwidth probe) is not forwarded twice.
        guard source.receivedSequences.insert(header.sequenceNumber, nowMs: nowMs) else {
            counters.drop(.duplicate)
            return
        }
        source.report.packets &+= 1
        source.report.bytes &+= UInt64(packet.count)
        if source.isVideo, source.rid.isEmpty, source.statistics.packetsReceived > 0 {
            // A jump of up to 17 numbers is a loss one NACK can name: ask for it once, at once.
            // Larger jumps are a restarted sender or a burst a keyframe repairs better. Simulcast
            // layers are left out: their repairs come on RTX SSRCs the relay never learns.
            let highest = UInt16(truncatingIfNeeded: source.statistics.extendedHighestSequenceNumber)
            let distance = header.sequenceNumber &- highest
            if distance >= 2, distance <= 17 { sendNACK(to: source, firstMissing: highest &+ 1, count: Int(distance) - 1) }
        }
        source.statistics.record(sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, arrivalMs: nowMs)
        var keyframe = false
        if source.isVideo {
            if let codec = source.codec, header.payloadLength > 0 {
                let payload = UnsafeRawBufferPointer(rebasing: packet[header.payloadOffset..<(header.payloadOffset + header.payloadLength)])
                keyframe = KeyframeDetector.isKeyframe(codec: codec, payload: payload)
                if keyframe, let size = KeyframeDetector.frameSize(codec: codec, payload: payload) {
                    source.report.frameWidth = size.width
                    source.report.frameHeight = size.height
                }
            }
            if keyframe {
                // The run's earlier packets go on first: to the sinks bound before a switch, and
                // with the keyframe requests they may cause (a sink resynchronised by one asks
                // for a keyframe) decided before this keyframe is noted, as packet by packet.
                if forwardRunCount > 0 { forwardRun() }
                source.report.keyframes &+= 1
                source.lastKeyframeSequence = header.sequenceNumber
                source.lastKeyframeMs = nowMs
                source.throttle.keyframeReceived(nowMs: nowMs)
                source.repeater.keyframeDelivered()
                if !source.pendingSinks.isEmpty { completePendingSwitches(to: source) }
            }
            source.retransmissions?.store(sequenceNumber: header.sequenceNumber, packet: packet, nowMs: nowMs)
        }
        // Read once: volume reports use it, and WebRTC subscribers get it under their own id.
        let audioLevel = audioLevel(of: packet, header: header, from: source)
        if let audioLevel {
            if audioLevel.level < source.loudestLevel { source.loudestLevel = audioLevel.level }
            if audioLevel.voiceActivity { source.voiceActivity = true }
            source.levelSeen = true
        }
        // Located once here, not once per subscriber: every copy has the same descriptor.
        let vp8Fields = source.codec == .vp8 ? Self.vp8Fields(in: packet, header: header) : nil
        forwardToSinks(packet, header: header, keyframe: keyframe, audioLevel: audioLevel, vp8Fields: vp8Fields, from: source)
        if !source.outlets.isEmpty {
            let tag = PipeTag.make(PipeTag.media, source: source.id)
            for outlet in source.outlets where !outlet.link.push(packet, tag: tag) { counters.drop(.pipeFull) }
        }
    }

    /// Where the VP8 descriptor's fields lie in a packet's payload, for every sink's rewrite.
    @inline(__always)
    static func vp8Fields(in packet: UnsafeRawBufferPointer, header: RTPHeader) -> VP8DescriptorFields? {
        guard header.payloadLength > 0 else { return nil }
        return VP8DescriptorRewriter.locate(in: UnsafeRawBufferPointer(rebasing: packet[header.payloadOffset..<(header.payloadOffset + header.payloadLength)]))
    }

    /// Sends one packet to one sink with the sink's SSRC, sequence number and timestamp;
    /// `serial` is the packet's in its source's retransmission buffer (0 when not stored).
    @inline(__always)
    func forward(
        _ packet: UnsafeRawBufferPointer, header: RTPHeader, keyframe: Bool, audioLevel: (level: UInt8, voiceActivity: Bool)?, vp8Fields: VP8DescriptorFields?,
        serial: UInt32, to sink: SinkState
    ) {
        sink.transportReference._withUnsafeGuaranteedRef { transport in
            forward(
                packet, header: header, keyframe: keyframe, audioLevel: audioLevel, vp8Fields: vp8Fields, serial: serial, to: sink, on: transport,
                fromReceiveBatch: handlesReceiveBatch)
        }
    }

    /// ``forward(_:header:keyframe:audioLevel:vp8Fields:serial:to:)`` with the sink's transport at
    /// hand; `fromReceiveBatch` tells whether the packet lies in the shell's receive batch.
    func forward(
        _ packet: UnsafeRawBufferPointer, header: RTPHeader, keyframe: Bool, audioLevel: (level: UInt8, voiceActivity: Bool)?, vp8Fields: VP8DescriptorFields?,
        serial: UInt32, to sink: SinkState, on transport: TransportState, fromReceiveBatch: Bool
    ) {
        // Checked first, so that a keyframe is not spent on a subscriber that cannot receive it yet.
        guard transport.canSend else {
            counters.drop(transport.awaitsAddressProof ? .addressUnproven : .sinkNotConnected)
            return
        }
        if sink.waitingForKeyframe {
            guard keyframe else {
                counters.drop(.waitingForKeyframe)
                return
            }
            sink.waitingForKeyframe = false
            sink.report.keyframeDeliveredAtMs = nowUnixMs
        }
        guard
            let numbers = sink.rewriter.rewrite(
                sourceGeneration: sink.generation, sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, nowMs: nowMs)
        else {
            counters.drop(.staleSequence)
            sink.report.drops &+= 1
            return
        }
        // An SRTP index seals one packet only; see MediaCore+SentRecord.
        if let record = sink.sentRecord, Self.wasSent(numbers.sequenceNumber, in: record) {
            counters.drop(.duplicate)
            sink.report.drops &+= 1
            return
        }
        // The sender restarted its numbering: its decoder state is gone, ask for a fresh start.
        if numbers.resynchronized, sink.isVideo, let source = sink.source { startKeyframeRequests(for: source) }
        let sent = send(
            packet, header: header, audioLevel: audioLevel, vp8Fields: vp8Fields, to: sink, on: transport, sequenceNumber: numbers.sequenceNumber,
            timestamp: numbers.timestamp, fromReceiveBatch: fromReceiveBatch)
        if sent {
            if let record = sink.sentRecord {
                Self.recordSent(numbers.sequenceNumber, serial: serial, padding: sink.padsSegments ? lastChosenPadding : 0, in: record)
            }
            sink.rewriter.recordSent(payloadBytes: header.payloadLength)
            sink.report.packets &+= 1
            sink.report.bytes &+= UInt64(packet.count)
        } else {
            sink.report.drops &+= 1
        }
    }

    /// The RFC 6464 level a packet carries under its source's extension id, if any.
    @inline(__always)
    func audioLevel(of packet: UnsafeRawBufferPointer, header: RTPHeader, from source: SourceState?) -> (level: UInt8, voiceActivity: Bool)? {
        guard let source, source.audioLevelId != 0, header.hasExtension,
            let audio = RTPHeaderExtensions.audioLevel(in: packet, header: header, id: source.audioLevelId)
        else { return nil }
        return (audio.level, audio.voiceActivity)
    }

    /// ``adoptSimulcastLayer(_:header:on:)`` after the pending run, which goes to the sinks
    /// bound before the new layer.
    func adoptingSimulcastLayer(_ packet: UnsafeRawBufferPointer, header: RTPHeader, on transport: TransportState) -> SourceState? {
        if forwardRunCount > 0 { forwardRun() }
        return adoptSimulcastLayer(packet, header: header, on: transport)
    }

    /// A packet with an SSRC nobody announced may be the first of a simulcast layer announced
    /// only by its rid: the layer whose rid the packet carries adopts the SSRC for good.
    func adoptSimulcastLayer(_ packet: UnsafeRawBufferPointer, header: RTPHeader, on transport: TransportState) -> SourceState? {
        guard !transport.ridSources.isEmpty, header.ssrc != 0, header.hasExtension else { return nil }
        for (index, source) in transport.ridSources.enumerated() {
            guard let range = RTPHeaderExtensions.find(id: source.ridExtensionId, in: packet, header: header),
                range.count == source.rid.count, packet[range].elementsEqual(source.rid)
            else { continue }
            transport.ridSources.remove(at: index)
            source.ssrc = header.ssrc
            transport.sources[header.ssrc] = source
            // Subscribers bound before the layer's first packet asked for a keyframe no one could hear.
            if source.isVideo, source.sinks.contains(where: { $0.waitingForKeyframe }) || !source.pendingSinks.isEmpty {
                startKeyframeRequests(for: source)
            }
            return source
        }
        return nil
    }

    /// Writes one packet for a sink along the send path chosen when it was bound.
    /// `fromReceiveBatch`: the packet lies in the shell's receive batch, so a plain subscriber's
    /// datagram may leave partly from there, and an SRTP subscriber's seal may read it from
    /// there (``sendRTP(_:to:ssrc:sequenceNumber:timestamp:)``).
    @inline(__always)
    func send(
        _ packet: UnsafeRawBufferPointer, header: RTPHeader, audioLevel: (level: UInt8, voiceActivity: Bool)?, vp8Fields: VP8DescriptorFields?,
        to sink: SinkState, on transport: TransportState, sequenceNumber: UInt16, timestamp: UInt32, fromReceiveBatch: Bool, exactPadding: Int? = nil
    ) -> Bool {
        let ssrc = sink.rewriter.outputSSRC
        let padding: SegmentPaddingChoice = if let exactPadding { .exactly(exactPadding) } else if sink.padsSegments { .toOpenRun } else { .none }
        switch sink.sendPath {
        case .copy:
            return sendRTP(
                packet, to: transport, ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: sink.outputPayloadType,
                payloadOffset: header.payloadOffset, fromReceiveBatch: fromReceiveBatch, padding: padding)
        case .copyRewritingVP8:
            return sendRTP(
                packet, to: transport, ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp, payloadType: sink.outputPayloadType,
                vp8: sink, fields: vp8Fields, payloadOffset: header.payloadOffset, fromReceiveBatch: fromReceiveBatch, padding: padding)
        case .rewriteExtensions:
            return sendRTPRewritingExtensions(
                packet, header: header, audioLevel: audioLevel, to: transport, ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp,
                payloadType: sink.outputPayloadType, fromReceiveBatch: fromReceiveBatch, padding: padding)
        case .rewriteExtensionsAndVP8:
            return sendRTPRewritingExtensions(
                packet, header: header, audioLevel: audioLevel, to: transport, ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: timestamp,
                payloadType: sink.outputPayloadType, vp8: sink, fields: vp8Fields, fromReceiveBatch: fromReceiveBatch, padding: padding)
        }
    }
}
