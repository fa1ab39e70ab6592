import RTPWire
import Testing

@Suite("RTCP packet parsers")
struct RTCPParserTests {
    /// A sender report with one block followed by an SDES CNAME chunk, laid out as a browser
    /// sends them.
    static let senderReportWithSDES: [UInt8] = {
        var sr: [UInt8] = []
        TestPacket.append32(0x5EED_0001, to: &sr)  // sender SSRC
        TestPacket.append64(0xE7A1_2B3C_8000_0000, to: &sr)  // NTP
        TestPacket.append32(3_000_000, to: &sr)  // RTP timestamp
        TestPacket.append32(1500, to: &sr)  // packets
        TestPacket.append32(1_200_000, to: &sr)  // octets
        sr += TestPacket.reportBlock(
            ssrc: 0xAB00_0002, fractionLost: 12, cumulativeLost24: 0x00_0102, highest: 0x0001_FFF0,
            jitter: 44, lsr: 0x2B3C_8000, dlsr: 0x0001_8000)
        var sdes: [UInt8] = []
        TestPacket.append32(0x5EED_0001, to: &sdes)
        sdes += [1, 16] + Array("user1234@example".utf8) + [0, 0]  // CNAME, end, pad to a word
        return TestPacket.rtcp(countOrFormat: 1, packetType: 200, body: sr)
            + TestPacket.rtcp(countOrFormat: 1, packetType: 202, body: sdes)
    }()

    /// Collects the views of `bytes` and runs `body` with the buffer.
    func withViews<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer, [RTCPPacketView]) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            var views: [RTCPPacketView] = []
            while let view = iterator.next() { views.append(view) }
            #expect(!iterator.isMalformed)
            return try body(buffer, views)
        }
    }

    @Test("compound SR + SDES")
    func senderReportCompound() throws {
        try withViews(Self.senderReportWithSDES) { buffer, views in
            #expect(views.map(\.packetType) == [200, 202])
            #expect(views.map(\.length) == [52, 28])
            let report = try #require(RTCPSenderReport(view: views[0], in: buffer))
            #expect(report.ssrc == 0x5EED_0001)
            #expect(report.ntpTimestamp == 0xE7A1_2B3C_8000_0000)
            #expect(report.rtpTimestamp == 3_000_000)
            #expect(report.packetCount == 1500)
            #expect(report.octetCount == 1_200_000)
            #expect(report.reportCount == 1)
            #expect(
                report.reportBlock(at: 0, in: buffer)
                    == RTCPReportBlock(
                        ssrc: 0xAB00_0002, fractionLost: 12, cumulativeLost: 258, extendedHighestSequence: 0x0001_FFF0,
                        jitter: 44, lastSenderReport: 0x2B3C_8000, delaySinceLastSenderReport: 0x0001_8000))
            #expect(report.reportBlock(at: 1, in: buffer) == nil)
            #expect(RTCPSenderReport(view: views[1], in: buffer) == nil, "SDES is not an SR")
            #expect(RTCPReceiverReport(view: views[0], in: buffer) == nil, "SR is not an RR")
        }
    }

    @Test("RR with two blocks, one with negative cumulative loss")
    func receiverReportTwoBlocks() throws {
        var body: [UInt8] = []
        TestPacket.append32(0x0000_0042, to: &body)
        body += TestPacket.reportBlock(
            ssrc: 1, fractionLost: 0, cumulativeLost24: 0, highest: 100, jitter: 1, lsr: 2, dlsr: 3)
        body += TestPacket.reportBlock(
            ssrc: 2, fractionLost: 255, cumulativeLost24: 0xFF_FFFE, highest: 0x0003_0001, jitter: 9, lsr: 8, dlsr: 7)
        try withViews(TestPacket.rtcp(countOrFormat: 2, packetType: 201, body: body)) { buffer, views in
            let report = try #require(RTCPReceiverReport(view: views[0], in: buffer))
            #expect(report.ssrc == 0x42)
            #expect(report.reportCount == 2)
            let first = try #require(report.reportBlock(at: 0, in: buffer))
            #expect(first.ssrc == 1 && first.extendedHighestSequence == 100 && first.cumulativeLost == 0)
            let second = try #require(report.reportBlock(at: 1, in: buffer))
            #expect(second.ssrc == 2)
            #expect(second.fractionLost == 255)
            #expect(second.cumulativeLost == -2)
            #expect(second.extendedHighestSequence == 0x0003_0001)
            #expect(second.jitter == 9 && second.lastSenderReport == 8 && second.delaySinceLastSenderReport == 7)
        }
    }

    /// Report count claimed versus whole blocks present.
    static let truncatedBlocks: [(packetType: UInt8, claimed: UInt8, present: Int)] = [
        (201, 1, 0), (201, 2, 1), (201, 31, 2), (200, 1, 0), (200, 3, 2),
    ]

    @Test("report blocks announced but missing make the report unparseable", arguments: truncatedBlocks)
    func truncatedReportBlocks(_ row: (packetType: UInt8, claimed: UInt8, present: Int)) {
        var body: [UInt8] = [0, 0, 0, 7]
        if row.packetType == 200 { body += [UInt8](repeating: 0, count: 20) }
        for index in 0..<row.present {
            body += TestPacket.reportBlock(ssrc: UInt32(index), fractionLost: 0, cumulativeLost24: 0, highest: 0, jitter: 0, lsr: 0, dlsr: 0)
        }
        withViews(TestPacket.rtcp(countOrFormat: row.claimed, packetType: row.packetType, body: body)) { buffer, views in
            #expect(views.count == 1)
            #expect(RTCPSenderReport(view: views[0], in: buffer) == nil)
            #expect(RTCPReceiverReport(view: views[0], in: buffer) == nil)
        }
    }

    @Test("PLI")
    func pictureLossIndication() throws {
        var body: [UInt8] = []
        TestPacket.append32(0x0000_0001, to: &body)
        TestPacket.append32(0x0000_0BAD, to: &body)
        try withViews(TestPacket.rtcp(countOrFormat: 1, packetType: 206, body: body)) { buffer, views in
            let feedback = try #require(RTCPFeedback(view: views[0], in: buffer))
            #expect(feedback.isPictureLossIndication && !feedback.isFullIntraRequest && !feedback.isGenericNACK)
            #expect(feedback.packetType == RTCPPacketType.payloadFeedback)
            #expect(feedback.format == RTCPFeedbackFormat.pictureLossIndication)
            #expect(feedback.senderSSRC == 1)
            #expect(feedback.mediaSSRC == 0xBAD)
            #expect(feedback.fciOffset == 12 && feedback.fciLength == 0)
        }
    }

    @Test("FIR with two entries")
    func fullIntraRequest() throws {
        var body: [UInt8] = []
        TestPacket.append32(0x0000_0001, to: &body)
        TestPacket.append32(0, to: &body)
        TestPacket.append32(0xAAAA_0001, to: &body)
        body += [7, 0, 0, 0]
        TestPacket.append32(0xBBBB_0002, to: &body)
        body += [255, 0, 0, 0]
        try withViews(TestPacket.rtcp(countOrFormat: 4, packetType: 206, body: body)) { buffer, views in
            let feedback = try #require(RTCPFeedback(view: views[0], in: buffer))
            #expect(feedback.isFullIntraRequest)
            #expect(feedback.firEntryCount == 2)
            let first = try #require(feedback.firEntry(at: 0, in: buffer))
            #expect(first.ssrc == 0xAAAA_0001 && first.sequenceNumber == 7)
            let second = try #require(feedback.firEntry(at: 1, in: buffer))
            #expect(second.ssrc == 0xBBBB_0002 && second.sequenceNumber == 255)
            #expect(feedback.firEntry(at: 2, in: buffer) == nil)
        }
    }

    @Test("NACK entries and their lost lists")
    func genericNACK() throws {
        var body: [UInt8] = []
        TestPacket.append32(0x0000_0001, to: &body)
        TestPacket.append32(0x0000_0002, to: &body)
        TestPacket.append16(1000, to: &body)
        TestPacket.append16(0b1000_0000_0000_0101, to: &body)
        TestPacket.append16(65534, to: &body)
        TestPacket.append16(0b0000_0000_0000_0011, to: &body)
        try withViews(TestPacket.rtcp(countOrFormat: 1, packetType: 205, body: body)) { buffer, views in
            let feedback = try #require(RTCPFeedback(view: views[0], in: buffer))
            #expect(feedback.isGenericNACK)
            #expect(feedback.nackEntryCount == 2)
            let first = try #require(feedback.nackEntry(at: 0, in: buffer))
            #expect(first.packetID == 1000 && first.lostBitmask == 0x8005)
            var lost: [UInt16] = []
            first.forEachLost { lost.append($0) }
            #expect(lost == [1000, 1001, 1003, 1016])
            #expect(first.lostCount == 4)
            let second = try #require(feedback.nackEntry(at: 1, in: buffer))
            lost = []
            second.forEachLost { lost.append($0) }
            #expect(lost == [65534, 65535, 0], "lost list wraps")
            #expect(feedback.nackEntry(at: 2, in: buffer) == nil)
        }
    }

    /// Bitmask and the sequence numbers it reports lost after packet ID 10.
    static let nackBitmasks: [(mask: UInt16, lost: [UInt16])] = [
        (0x0000, [10]),
        (0x0001, [10, 11]),
        (0x8000, [10, 26]),
        (0xFFFF, Array(10...26)),
        (0x00F0, [10, 15, 16, 17, 18]),
    ]

    @Test("forEachLost and contains agree with the bitmask", arguments: nackBitmasks)
    func nackBitmask(_ row: (mask: UInt16, lost: [UInt16])) {
        let entry = RTCPNackEntry(packetID: 10, lostBitmask: row.mask)
        var lost: [UInt16] = []
        entry.forEachLost { lost.append($0) }
        #expect(lost == row.lost)
        #expect(entry.lostCount == row.lost.count)
        for sequence: UInt16 in 0...40 {
            #expect(entry.contains(sequence) == row.lost.contains(sequence))
        }
    }

    @Test("feedback shorter than 12 bytes is refused")
    func shortFeedback() {
        withViews(TestPacket.rtcp(countOrFormat: 1, packetType: 206, body: [0, 0, 0, 1])) { buffer, views in
            #expect(RTCPFeedback(view: views[0], in: buffer) == nil)
        }
    }

    @Test("BYE with two sources and a reason")
    func goodbye() throws {
        var body: [UInt8] = []
        TestPacket.append32(0x0101_0101, to: &body)
        TestPacket.append32(0x0202_0202, to: &body)
        body += [3] + Array("bye".utf8)
        try withViews(TestPacket.rtcp(countOrFormat: 2, packetType: 203, body: body)) { buffer, views in
            let bye = try #require(RTCPGoodbye(view: views[0], in: buffer))
            #expect(bye.sourceCount == 2)
            #expect(bye.ssrc(at: 0, in: buffer) == 0x0101_0101)
            #expect(bye.ssrc(at: 1, in: buffer) == 0x0202_0202)
            #expect(bye.ssrc(at: 2, in: buffer) == nil)
        }
    }

    @Test("BYE announcing more sources than present is refused")
    func goodbyeTruncated() {
        withViews(TestPacket.rtcp(countOrFormat: 3, packetType: 203, body: [0, 0, 0, 1, 0, 0, 0, 2])) { buffer, views in
            #expect(RTCPGoodbye(view: views[0], in: buffer) == nil)
        }
    }

    @Test("a view that does not fit the buffer is refused")
    func foreignView() {
        let view = RTCPPacketView(packetType: 201, countOrFormat: 0, offset: 4, length: 8)
        let bytes: [UInt8] = [0x80, 201, 0, 1, 0, 0, 0, 1]
        bytes.withUnsafeBytes { buffer in
            #expect(RTCPReceiverReport(view: view, in: buffer) == nil)
        }
    }
}
