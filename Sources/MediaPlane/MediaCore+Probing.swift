import RTPWire
import StreamCore

/// Probing a subscriber's downlink for headroom: when its estimator asks for a probe cluster
/// (``SendSideBandwidthEstimator/nextProbe(nowUs:)``), the relay sends packets on one of the
/// transport's RFC 4588 streams (copies of the latest video packet, else padding), as libwebrtc
/// does, spread over the cluster's duration at its target rate; the subscriber's transport-wide
/// feedback on them gives the result. Receivers drop such packets (duplicates, padding) after
/// their feedback has counted them.
extension MediaCore {
    /// Padding bytes per probe packet: libwebrtc's largest padding packet.
    static let probePaddingBytes = 224
    /// How often the stamping transports are asked whether a probe is due, in microseconds.
    static let probeScanIntervalUs: Int64 = 10_000

    /// A padding probe's length: the fixed header, the transport-wide number's extension block,
    /// the padding.
    static var probePacketLength: Int { paddingProbeOffset + probePaddingBytes }
    /// Where a padding probe's padding starts.
    static var paddingProbeOffset: Int { RTPHeader.fixedHeaderLength + subscriberExtensionLength(writesLevel: false, writesNumber: true) }

    /// Starts the probes that are due and sends the packets of those under way.
    func sendProbes() {
        if lastProbeScanUs.map({ nowUs - $0 >= Self.probeScanIntervalUs }) ?? true {
            lastProbeScanUs = nowUs
            for transport in stampingTransports where transport.probe == nil { startProbeIfDue(on: transport) }
        }
        guard !probingTransports.isEmpty else { return }
        var index = 0
        while index < probingTransports.count {
            let transport = probingTransports[index]
            if sendProbePackets(on: transport) {
                index += 1
            } else {
                transport.probe = nil
                probingTransports.remove(at: index)
            }
        }
    }

    /// Asks the transport's estimator for a probe when the transport can carry one: it sends,
    /// media has gone out (a probe before it would measure a path nothing uses yet), and a sink
    /// has an RFC 4588 stream for it, bound to a source or not: a video the layer allocator
    /// paused for the subscriber's downlink comes back only once probes have found the room.
    func startProbeIfDue(on transport: TransportState) {
        guard transport.canSend, let estimator = transport.estimator, estimator.log.nextSequence > 0,
            let sink = transport.sinks.values.first(where: { $0.rtxSSRC != 0 }),
            let cluster = estimator.nextProbe(nowUs: nowUs)
        else { return }
        transport.probe = ProbeBurst(
            cluster: cluster, sinkSSRC: sink.rewriter.outputSSRC, bytesLeft: cluster.bytes(packetBytes: Self.probePacketLength), nextUs: nowUs)
        probingTransports.append(transport)
        counters.probeClusters &+= 1
    }

    /// Sends the probe packets due by now, each due when the one before it has taken its share of
    /// the target rate; false once the burst is over (or cannot go on).
    func sendProbePackets(on transport: TransportState) -> Bool {
        guard var burst = transport.probe, transport.canSend, let sink = transport.sinks[burst.sinkSSRC], sink.rtxSSRC != 0 else { return false }
        while !burst.isComplete, burst.nextUs <= nowUs {
            guard let bytes = sendProbePacket(on: transport, sink: sink) else { return false }
            burst.bytesLeft -= bytes
            burst.packetsSent += 1
            burst.nextUs += max(1, Int64(Double(bytes * 8) * 1_000_000 / burst.cluster.targetBps))
            counters.probePackets &+= 1
        }
        transport.probe = burst
        return !burst.isComplete
    }

    /// One probe packet on the sink's RTX stream, stamped (as everything sent while the burst is
    /// under way) with the cluster: the sink's latest video packet again, as libwebrtc's payload
    /// padding, so the probe's packets are the size of media and a path that lets a short burst
    /// through (a token bucket's depth) cannot make a few small ones look fast; padding alone
    /// when no such packet is stored. Its length, or nil when nothing went.
    func sendProbePacket(on transport: TransportState, sink: SinkState) -> Int? {
        let latest = sink.rewriter.lastOutputSequenceNumber
        if sink.rewriter.packetsSent > 0, let source = sink.source, let buffer = source.retransmissions,
            let sourceSequence = sink.rewriter.sourceSequenceNumber(forOutput: latest, sourceGeneration: sink.generation)
        {
            let length: Int? =
                buffer.withPacket(sequenceNumber: sourceSequence, nowMs: nowMs, maximumAgeMs: configuration.retransmissionMaximumAgeMs) {
                    stored in
                    guard let header = RTPHeader.parse(stored),
                        let timestamp = sink.rewriter.outputTimestamp(forSource: header.timestamp, sourceGeneration: sink.generation)
                    else { return nil }
                    return sendRTX(stored, header: header, to: sink, originalSequenceNumber: latest, timestamp: timestamp)
                } ?? nil
            if let length { return length }
        }
        return sendPaddingProbe(on: transport, sink: sink) ? Self.probePacketLength : nil
    }

    /// One padding-only packet on the sink's RFC 4588 stream.
    func sendPaddingProbe(on transport: TransportState, sink: SinkState) -> Bool {
        let length = Self.probePacketLength
        let slot = reserveSlot(on: transport)
        // Version 2, padding, one header extension, no CSRC; no marker.
        slot.storeBytes(of: UInt8(0xB0), toByteOffset: 0, as: UInt8.self)
        slot.storeBytes(of: sink.rtxPayloadType & 0x7F, toByteOffset: 1, as: UInt8.self)
        RTPHeaderWriter.setSequenceNumber(sink.rtxSequenceNumber, in: slot)
        RTPHeaderWriter.setTimestamp(sink.rewriter.lastOutputTimestamp, in: slot)
        RTPHeaderWriter.setSSRC(sink.rtxSSRC, in: slot)
        sink.rtxSequenceNumber &+= 1
        Self.writeSubscriberExtensions(
            at: slot + RTPHeader.fixedHeaderLength, audioLevelId: 0, audioLevel: nil, transportWideId: transport.sentSequenceExtensionId,
            transportWide: nextTransportWideSequence(bytes: length, on: transport))
        let padding = slot + Self.paddingProbeOffset
        padding.initializeMemory(as: UInt8.self, repeating: 0, count: Self.probePaddingBytes - 1)
        padding.storeBytes(of: UInt8(Self.probePaddingBytes), toByteOffset: Self.probePaddingBytes - 1, as: UInt8.self)
        return commitRTP(on: transport, slot: slot, length: length)
    }
}
