import RTPWire
import StreamCore

extension FuzzTarget {
    /// The input is one compound RTCP packet as it arrives. Every view the iterator yields must
    /// lie inside the packet and iteration must end; every parser reads only inside its packet;
    /// the report blocks feed the statistics the relay keeps from them. Then the writers write
    /// each packet they know from fields taken from the input, and the parsers must read the
    /// same fields back.
    static func runRTCP(_ bytes: UnsafeRawBufferPointer) {
        var iterator = RTCPPacketIterator(bytes)
        var end = 0
        var statistics = RemoteReceiverStatistics()
        while let view = iterator.next() {
            precondition(view.offset == end && view.length >= 4 && view.offset + view.length <= bytes.count, "a view outside the packet")
            precondition(view.paddingLength >= 0 && view.contentLength >= 4, "padding eats the header")
            end = view.offset + view.length
            readEveryField(view, in: bytes, into: &statistics)
        }
        precondition(iterator.next() == nil, "iteration went on after its end")
        precondition(iterator.isMalformed || end == bytes.count, "iteration stopped early without calling the packet malformed")
        var input = FuzzInput(bytes)
        checkWriters(&input)
    }

    private static func readEveryField(_ view: RTCPPacketView, in bytes: UnsafeRawBufferPointer, into statistics: inout RemoteReceiverStatistics) {
        var blocks: [RTCPReportBlock] = []
        if let report = RTCPSenderReport(view: view, in: bytes) {
            blocks = (0..<report.reportCount).map { report.reportBlock(at: $0, in: bytes)! }
            precondition(report.reportBlock(at: report.reportCount, in: bytes) == nil, "a report block past the count")
            _ = NTPTime.unixMilliseconds(report.ntpTimestamp)
            _ = NTPTime.middle32(report.ntpTimestamp)
        }
        if let report = RTCPReceiverReport(view: view, in: bytes) {
            blocks = (0..<report.reportCount).map { report.reportBlock(at: $0, in: bytes)! }
            precondition(report.reportBlock(at: -1, in: bytes) == nil, "a report block at a negative index")
        }
        for block in blocks {
            statistics.update(
                fractionLost: block.fractionLost, cumulativeLost: block.cumulativeLost, jitter: block.jitter,
                lastSenderReport: block.lastSenderReport, delaySinceLastSenderReport: block.delaySinceLastSenderReport,
                nowNTPMiddle32: block.extendedHighestSequence)
            precondition(
                block.cumulativeLost >= RTCPReportBlock.minimumCumulativeLost && block.cumulativeLost <= RTCPReportBlock.maximumCumulativeLost,
                "cumulative loss outside 24 bits")
            precondition((statistics.roundTripTimeMs ?? 0) >= 0, "a negative round trip")
            _ = NTPTime.milliseconds(fromCompact: block.delaySinceLastSenderReport)
        }
        if let feedback = RTCPFeedback(view: view, in: bytes) {
            precondition(feedback.fciOffset + feedback.fciLength <= bytes.count && feedback.fciLength >= 0, "FCI outside the packet")
            if feedback.isGenericNACK {
                for index in 0..<feedback.nackEntryCount {
                    let entry = feedback.nackEntry(at: index, in: bytes)!
                    var lost = 0
                    entry.forEachLost { sequenceNumber in
                        precondition(entry.contains(sequenceNumber), "a lost packet the entry does not contain")
                        lost += 1
                    }
                    precondition(lost == 1 + entry.lostBitmask.nonzeroBitCount, "wrong number of lost packets")
                }
                precondition(feedback.nackEntry(at: feedback.nackEntryCount, in: bytes) == nil, "a NACK entry past the count")
            }
            if feedback.isFullIntraRequest {
                for index in 0..<feedback.firEntryCount { _ = feedback.firEntry(at: index, in: bytes)! }
                precondition(feedback.firEntry(at: feedback.firEntryCount, in: bytes) == nil, "a FIR entry past the count")
            }
        }
        if let feedback = RTCPFeedback(view: view, in: bytes), let transport = RTCPTransportFeedback(feedback: feedback, in: bytes) {
            checkEstimator(transport, in: bytes)
        }
        if let goodbye = RTCPGoodbye(view: view, in: bytes) {
            for index in 0..<goodbye.sourceCount { _ = goodbye.ssrc(at: index, in: bytes)! }
            precondition(goodbye.ssrc(at: goodbye.sourceCount, in: bytes) == nil, "an SSRC past the count")
        }
    }

    /// A subscriber's feedback, whatever it says, leaves its transport's estimate finite and in
    /// bounds: 300 packets logged (the first ten a probe), the feedback taken twice (a repeat,
    /// as a late arrival re-reports), then a probe asked for.
    private static func checkEstimator(_ feedback: RTCPTransportFeedback, in bytes: UnsafeRawBufferPointer) {
        let estimator = SendSideBandwidthEstimator()
        _ = estimator.nextProbe(nowUs: 0)
        for index in 0..<300 { _ = estimator.recordSent(bytes: 1200, sendUs: Int64(index) * 1_000, probeCluster: index < 10 ? 0 : -1) }
        estimator.onTransportFeedback(feedback, in: bytes, nowUs: 400_000)
        estimator.onTransportFeedback(feedback, in: bytes, nowUs: 500_000)
        _ = estimator.nextProbe(nowUs: 6_000_000)
        let snapshot = estimator.snapshot
        let configuration = estimator.configuration
        precondition(
            snapshot.estimateBps.isFinite && snapshot.estimateBps >= configuration.minimumBps && snapshot.estimateBps <= configuration.maximumBps,
            "an estimate out of bounds: \(snapshot)")
        precondition(snapshot.rttUs > 0 && snapshot.lossFraction >= 0 && snapshot.lossFraction <= 1, "inputs out of range: \(snapshot)")
    }

    /// Writes one compound packet with every writer, fields from the input, at an offset the
    /// input picks, and parses it back.
    private static func checkWriters(_ input: inout FuzzInput) {
        let senderSSRC = input.uint32()
        let mediaSSRC = input.uint32()
        let ntp = input.uint64()
        let rtpTimestamp = input.uint32()
        let packetID = input.uint16()
        let bitmask = input.uint16()
        let firSequence = input.byte()
        let block = RTCPReportBlock(
            ssrc: input.uint32(), fractionLost: input.byte(),
            cumulativeLost: Int32(truncatingIfNeeded: input.uint32() << 8) >> 8,
            extendedHighestSequence: input.uint32(), jitter: input.uint32(), lastSenderReport: input.uint32(),
            delaySinceLastSenderReport: input.uint32())
        let cname = Array(input.take(Int(input.byte())))
        let start = Int(input.byte() & 0x0F)
        var buffer = [UInt8](repeating: 0, count: start + 512)
        var offset = start
        buffer.withUnsafeMutableBytes { out in
            func add(_ length: Int?) {
                precondition(length != nil, "a writer refused a buffer with room")
                offset += length!
            }
            add(
                RTCPWriter.writeSenderReport(
                    ssrc: senderSSRC, ntpTimestamp: ntp, rtpTimestamp: rtpTimestamp, packetCount: UInt32(packetID), octetCount: mediaSSRC, into: out, at: offset
                ))
            add(RTCPWriter.writeReceiverReport(ssrc: senderSSRC, block: block, into: out, at: offset))
            add(RTCPWriter.writeReceiverReport(ssrc: mediaSSRC, block: nil, into: out, at: offset))
            add(RTCPWriter.writeGenericNACK(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, packetID: packetID, lostBitmask: bitmask, into: out, at: offset))
            add(RTCPWriter.writePictureLossIndication(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, into: out, at: offset))
            add(RTCPWriter.writeFullIntraRequest(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, sequenceNumber: firSequence, into: out, at: offset))
            add(RTCPWriter.writeGoodbye(ssrc: mediaSSRC, into: out, at: offset))
            let described = cname.withUnsafeBytes { RTCPWriter.writeSourceDescriptionCNAME(ssrc: senderSSRC, cname: $0, into: out, at: offset) }
            precondition((described != nil) == !cname.isEmpty, "the CNAME writer refused a name of 1 to 255 bytes")
            offset += described ?? 0
            // A buffer one byte short of each packet is refused and left untouched.
            let tail = UnsafeMutableRawBufferPointer(rebasing: out[offset..<(offset + RTCPWriter.fullIntraRequestLength - 1)])
            precondition(
                RTCPWriter.writeFullIntraRequest(senderSSRC: 1, mediaSSRC: 2, sequenceNumber: 3, into: tail, at: 0) == nil, "a writer wrote past the end")
            precondition(tail.allSatisfy { $0 == 0 }, "a refusing writer wrote")
        }
        buffer.withUnsafeBytes { raw in
            let written = UnsafeRawBufferPointer(rebasing: raw[start..<offset])
            var iterator = RTCPPacketIterator(written)
            var views: [RTCPPacketView] = []
            while let view = iterator.next() { views.append(view) }
            precondition(!iterator.isMalformed && views.count == (cname.isEmpty ? 7 : 8), "written packets do not iterate")
            let sender = RTCPSenderReport(view: views[0], in: written)!
            precondition(
                sender.ssrc == senderSSRC && sender.ntpTimestamp == ntp && sender.rtpTimestamp == rtpTimestamp
                    && sender.packetCount == UInt32(packetID) && sender.octetCount == mediaSSRC && sender.reportCount == 0, "sender report round trip")
            let receiver = RTCPReceiverReport(view: views[1], in: written)!
            precondition(
                receiver.ssrc == senderSSRC && receiver.reportCount == 1 && receiver.reportBlock(at: 0, in: written) == block, "receiver report round trip")
            let empty = RTCPReceiverReport(view: views[2], in: written)!
            precondition(empty.ssrc == mediaSSRC && empty.reportCount == 0, "empty receiver report round trip")
            let nack = RTCPFeedback(view: views[3], in: written)!
            precondition(
                nack.isGenericNACK && nack.senderSSRC == senderSSRC && nack.mediaSSRC == mediaSSRC && nack.nackEntryCount == 1
                    && nack.nackEntry(at: 0, in: written) == RTCPNackEntry(packetID: packetID, lostBitmask: bitmask), "NACK round trip")
            let pli = RTCPFeedback(view: views[4], in: written)!
            precondition(pli.isPictureLossIndication && pli.senderSSRC == senderSSRC && pli.mediaSSRC == mediaSSRC && pli.fciLength == 0, "PLI round trip")
            let fir = RTCPFeedback(view: views[5], in: written)!
            let entry = fir.firEntry(at: 0, in: written)
            precondition(
                fir.isFullIntraRequest && fir.mediaSSRC == 0 && fir.firEntryCount == 1 && entry?.ssrc == mediaSSRC && entry?.sequenceNumber == firSequence,
                "FIR round trip")
            let goodbye = RTCPGoodbye(view: views[6], in: written)!
            precondition(goodbye.sourceCount == 1 && goodbye.ssrc(at: 0, in: written) == mediaSSRC, "goodbye round trip")
            if !cname.isEmpty {
                let description = views[7]
                let itemLength = Int(written[description.offset + 9])
                let text = Array(written[(description.offset + 10)..<(description.offset + 10 + itemLength)])
                precondition(
                    description.packetType == RTCPPacketType.sourceDescription && description.countOrFormat == 1
                        && written[description.offset + 8] == 1 && text == cname && written[description.offset + 10 + itemLength] == 0, "SDES round trip")
            }
        }
    }
}
