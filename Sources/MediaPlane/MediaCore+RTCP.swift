import RTPWire
import StreamCore

extension MediaCore {
    /// A compound RTCP packet: sender reports from publishers are translated for their sinks;
    /// receiver reports from subscribers feed stats; PLI/FIR become throttled keyframe requests;
    /// NACKs are answered from the retransmission buffer.
    func handleRTCP(_ packet: UnsafeRawBufferPointer, on transport: TransportState) {
        var iterator = RTCPPacketIterator(packet)
        while let view = iterator.next() {
            switch view.packetType {
            case RTCPPacketType.senderReport:
                guard let report = RTCPSenderReport(view: view, in: packet) else {
                    counters.drop(.malformedRTCP)
                    continue
                }
                if let source = transport.sources[report.ssrc] { handleSenderReport(report, from: source) }
                var loss = ReportedLoss()
                for index in 0..<report.reportCount {
                    if let block = report.reportBlock(at: index, in: packet) { handleReportBlock(block, on: transport, into: &loss) }
                }
                estimate(from: loss, on: transport)
            case RTCPPacketType.receiverReport:
                guard let report = RTCPReceiverReport(view: view, in: packet) else {
                    counters.drop(.malformedRTCP)
                    continue
                }
                var loss = ReportedLoss()
                for index in 0..<report.reportCount {
                    if let block = report.reportBlock(at: index, in: packet) { handleReportBlock(block, on: transport, into: &loss) }
                }
                estimate(from: loss, on: transport)
            case RTCPPacketType.payloadFeedback:
                guard let feedback = RTCPFeedback(view: view, in: packet) else {
                    counters.drop(.malformedRTCP)
                    continue
                }
                if feedback.isPictureLossIndication {
                    counters.keyframeRequestsReceived &+= 1
                    if let sink = transport.sinks[feedback.mediaSSRC] { requestKeyframe(for: sink) }
                } else if feedback.isFullIntraRequest {
                    counters.keyframeRequestsReceived &+= 1
                    for index in 0..<feedback.firEntryCount {
                        if let entry = feedback.firEntry(at: index, in: packet), let sink = transport.sinks[entry.ssrc] { requestKeyframe(for: sink) }
                    }
                } else if let estimate = RTCPReceiverEstimatedMaximumBitrate(feedback: feedback, in: packet) {
                    handleReceiverEstimate(estimate, on: transport)
                }
            case RTCPPacketType.transportFeedback:
                guard let feedback = RTCPFeedback(view: view, in: packet) else {
                    counters.drop(.malformedRTCP)
                    continue
                }
                if let transportWide = RTCPTransportFeedback(feedback: feedback, in: packet) {
                    handleTransportWideFeedback(transportWide, in: packet, on: transport)
                    continue
                }
                guard feedback.isGenericNACK, let sink = transport.sinks[feedback.mediaSSRC] else { continue }
                for index in 0..<feedback.nackEntryCount {
                    guard let entry = feedback.nackEntry(at: index, in: packet) else { break }
                    entry.forEachLost { lost in
                        counters.nacksReceived &+= 1
                        sink.report.nacksReceived &+= 1
                        retransmit(lost, to: sink)
                    }
                }
            default:
                continue
            }
        }
        if iterator.isMalformed { counters.drop(.malformedRTCP) }
    }

    /// Sends each bound sink a sender report in its own SSRC and timestamp space, stamped with
    /// the relay's clock so the subscriber's round-trip time is measured against the relay.
    func handleSenderReport(_ report: RTCPSenderReport, from source: SourceState) {
        source.lastSenderReportNTPMiddle = NTPTime.middle32(report.ntpTimestamp)
        source.lastSenderReportArrivalMs = nowMs
        if !source.outlets.isEmpty,
            let length = RTCPWriter.writeSenderReport(
                ssrc: source.ssrc, ntpTimestamp: report.ntpTimestamp, rtpTimestamp: report.rtpTimestamp,
                packetCount: report.packetCount, octetCount: report.octetCount, into: pipeScratch, at: 0)
        {
            let tag = PipeTag.make(PipeTag.senderReport, source: source.id)
            for outlet in source.outlets where !outlet.link.push(UnsafeRawBufferPointer(rebasing: pipeScratch[0..<length]), tag: tag) {
                counters.drop(.pipeFull)
            }
        }
        let ntp = NTPTime.fromUnixMilliseconds(nowUnixMs)
        for sink in source.sinks where !sink.waitingForKeyframe && sink.transport.canSend {
            guard let timestamp = sink.rewriter.outputTimestamp(forSource: report.rtpTimestamp, sourceGeneration: sink.generation) else { continue }
            let transport = sink.transport
            let slot = reserveSlot(on: transport)
            let buffer = UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity)
            guard
                let length = RTCPWriter.writeSenderReport(
                    ssrc: sink.rewriter.outputSSRC, ntpTimestamp: ntp, rtpTimestamp: timestamp,
                    packetCount: sink.rewriter.packetsSent, octetCount: sink.rewriter.octetsSent, into: buffer, at: 0)
            else { continue }
            commitRTCP(on: transport, slot: slot, length: length)
        }
    }

    /// A subscriber's report about one of the tracks the relay sends it; its loss and round trip
    /// are gathered into `loss` for the transport's estimate.
    func handleReportBlock(_ block: RTCPReportBlock, on transport: TransportState, into loss: inout ReportedLoss) {
        guard let sink = transport.sinks[block.ssrc] else { return }
        sink.remoteStatistics.update(
            fractionLost: block.fractionLost, cumulativeLost: block.cumulativeLost, jitter: block.jitter,
            lastSenderReport: block.lastSenderReport, delaySinceLastSenderReport: block.delaySinceLastSenderReport,
            nowNTPMiddle32: NTPTime.middle32(NTPTime.fromUnixMilliseconds(nowUnixMs)))
        loss.add(fractionLost: block.fractionLost, roundTripTimeMs: sink.remoteStatistics.roundTripTimeMs)
    }

    /// Hands what one report said about the transport's tracks to its estimate.
    func estimate(from loss: ReportedLoss, on transport: TransportState) {
        guard loss.blocks > 0, let estimator = transport.estimator else { return }
        estimator.onReceiverReport(fractionLost: loss.fractionLost, rttUs: loss.roundTripTimeMs.map { Int64($0 * 1000) }, nowUs: nowUs)
        // A subscriber judged by its reports alone: heavy loss reaches the allocator at once.
        let fraction = Double(loss.fractionLost) / 256
        if transport.sentSequenceExtensionId == 0, fraction > Self.heavyReportedLoss, nowMs - transport.lossAnnouncedMs >= Self.reportedLossIntervalMs {
            transport.lossAnnouncedMs = nowMs
            events.yield(.reportedLoss(transportId: transport.id, lossFraction: fraction))
        }
    }

    /// Reported loss above which a subscriber's reports are announced to the control plane.
    static let heavyReportedLoss = 0.10
    static let reportedLossIntervalMs: Int64 = 2000

    /// A subscriber asked for a keyframe: pass it to the source, throttled across all its sinks.
    func requestKeyframe(for sink: SinkState) {
        guard let source = sink.source else { return }
        requestKeyframe(from: source)
    }

    func requestKeyframe(from source: SourceState) {
        guard source.isVideo, source.throttle.shouldSendRequest(nowMs: nowMs) else { return }
        sendPictureLossIndication(to: source)
    }

    /// Asks a publisher for `count` (1-16) packets from `firstMissing` on with one generic NACK.
    func sendNACK(to source: SourceState, firstMissing: UInt16, count: Int) {
        let transport = source.transport
        guard transport.canSend, count >= 1, count <= 17 else { return }
        let bitmask: UInt16 = count == 1 ? 0 : UInt16(truncatingIfNeeded: (1 << (count - 1)) - 1)
        let slot = reserveSlot(on: transport)
        let buffer = UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity)
        guard
            let length = RTCPWriter.writeGenericNACK(
                senderSSRC: transport.rtcpSSRC, mediaSSRC: source.ssrc, packetID: firstMissing, lostBitmask: bitmask, into: buffer, at: 0)
        else { return }
        counters.nacksSent &+= 1
        commitRTCP(on: transport, slot: slot, length: length)
    }

    /// Sends a PLI to the publisher of `source`, or, for a remote source, passes the request to
    /// the core that owns it. `forWaitingSinks` marks a request of the repeater, made for sinks
    /// that have not had a keyframe since they were bound: the owning core must not hold it back
    /// for a keyframe those sinks never received.
    func sendPictureLossIndication(to source: SourceState, forWaitingSinks: Bool = false) {
        if let upstream = source.upstream {
            // A remote source asks the core that owns the publisher, which throttles and sends.
            let kind = forWaitingSinks ? PipeTag.keyframeRequestForWaitingSinks : PipeTag.keyframeRequest
            if !upstream.push(UnsafeRawBufferPointer(start: nil, count: 0), tag: PipeTag.make(kind, source: source.id)) {
                counters.drop(.pipeFull)
            }
            return
        }
        let transport = source.transport
        guard transport.canSend, source.ssrc != 0 else { return }
        let slot = reserveSlot(on: transport)
        let buffer = UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity)
        guard let length = RTCPWriter.writePictureLossIndication(senderSSRC: transport.rtcpSSRC, mediaSSRC: source.ssrc, into: buffer, at: 0) else { return }
        counters.keyframeRequestsSent &+= 1
        source.report.keyframeRequestsSent &+= 1
        commitRTCP(on: transport, slot: slot, length: length)
    }

    /// Answers one NACKed sequence number of a sink from its source's retransmission buffer:
    /// not to an address that has not proved itself, not a packet stored longer ago than
    /// `retransmissionMaximumAgeMs`, not one resent to this sink within its round-trip time, and
    /// not beyond the bytes its stream has earned (``RetransmissionLimiter``).
    func retransmit(_ outputSequenceNumber: UInt16, to sink: SinkState) {
        let transport = sink.transport
        guard transport.canSend else {
            counters.drop(transport.awaitsAddressProof ? .addressUnproven : .sinkNotConnected)
            return
        }
        guard let limiter = sink.retransmissionLimiter, let source = sink.source, let buffer = source.retransmissions,
            let sourceSequence = sink.rewriter.sourceSequenceNumber(forOutput: outputSequenceNumber, sourceGeneration: sink.generation)
        else {
            counters.retransmissionsMissed &+= 1
            return
        }
        guard limiter.isDue(outputSequenceNumber, nowMs: nowMs, roundTripTimeMs: sink.remoteStatistics.roundTripTimeMs) else {
            counters.drop(.retransmissionTooSoon)
            return
        }
        var overBudget = false
        let sent: Bool? = buffer.withPacket(sequenceNumber: sourceSequence, nowMs: nowMs, maximumAgeMs: configuration.retransmissionMaximumAgeMs) { stored in
            guard limiter.affords(stored.count, streamBytesSent: sink.report.bytes) else {
                overBudget = true
                return false
            }
            guard let header = RTPHeader.parse(stored),
                let timestamp = sink.rewriter.outputTimestamp(forSource: header.timestamp, sourceGeneration: sink.generation)
            else { return false }
            if sink.rtxSSRC != 0 {
                let went = sendRTX(stored, header: header, to: sink, originalSequenceNumber: outputSequenceNumber, timestamp: timestamp) != nil
                if went { limiter.recordResent(outputSequenceNumber, bytes: stored.count, nowMs: nowMs) }
                return went
            }
            // The repair goes out under the first copy's SRTP index: as the same stored packet
            // with exactly its padding, or not at all when that is no longer known (or the buffer
            // now holds another packet under the number), or when the transport stamps
            // transport-wide numbers (the repair's would differ from the first copy's: such a
            // subscriber is repaired on its RFC 4588 stream only, which browsers always take).
            var exactPadding: Int?
            if let record = sink.sentRecord {
                guard transport.sentSequenceExtensionId == 0 else { return false }
                guard let first = Self.sentPacket(outputSequenceNumber, in: record), first.serial == buffer.serial(of: sourceSequence) else { return false }
                exactPadding = first.padding
            }
            // The stored copy lies in the retransmission buffer, which a later packet of this
            // batch may overwrite: it is copied whole, never sent from where it lies.
            let went = send(
                stored, header: header, audioLevel: nil, vp8Fields: sink.sendPath.rewritesVP8 ? Self.vp8Fields(in: stored, header: header) : nil,
                to: sink, on: transport, sequenceNumber: outputSequenceNumber, timestamp: timestamp, fromReceiveBatch: false,
                exactPadding: exactPadding)
            if went { limiter.recordResent(outputSequenceNumber, bytes: stored.count, nowMs: nowMs) }
            return went
        }
        if sent == true {
            counters.retransmissionsSent &+= 1
            sink.report.retransmissions &+= 1
        } else if overBudget {
            counters.drop(.retransmissionOverBudget)
        } else {
            counters.retransmissionsMissed &+= 1
        }
    }

    /// The relay's receiver report to a publisher about one of its tracks.
    func sendReceiverReport(for source: SourceState) {
        let transport = source.transport
        guard transport.canSend, source.statistics.packetsReceived > 0 else { return }
        let lost = source.statistics.cumulativeLost
        let block = RTCPReportBlock(
            ssrc: source.ssrc, fractionLost: source.statistics.makeReportFractionLost(),
            cumulativeLost: Int32(clamping: min(max(lost, Int64(RTCPReportBlock.minimumCumulativeLost)), Int64(RTCPReportBlock.maximumCumulativeLost))),
            extendedHighestSequence: source.statistics.extendedHighestSequenceNumber, jitter: source.statistics.jitter,
            lastSenderReport: source.lastSenderReportNTPMiddle,
            delaySinceLastSenderReport: source.lastSenderReportNTPMiddle == 0 ? 0 : NTPTime.compact(fromMilliseconds: nowMs - source.lastSenderReportArrivalMs))
        let slot = reserveSlot(on: transport)
        let buffer = UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity)
        guard let length = RTCPWriter.writeReceiverReport(ssrc: transport.rtcpSSRC, block: block, into: buffer, at: 0) else { return }
        commitRTCP(on: transport, slot: slot, length: length)
    }
}
