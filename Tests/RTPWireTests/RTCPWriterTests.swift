import RTPWire
import Testing

@Suite("RTCP writers")
struct RTCPWriterTests {
    /// Writes with `write` into a buffer of `size` bytes at `offset`, then checks that
    /// exactly one well-formed packet of the returned length sits there.
    func written(
        size: Int = 64,
        offset: Int = 0,
        _ write: (UnsafeMutableRawBufferPointer, Int) -> Int?
    ) -> (bytes: [UInt8], length: Int?) {
        var bytes = [UInt8](repeating: 0, count: size)
        let length = bytes.withUnsafeMutableBytes { write($0, offset) }
        return (bytes, length)
    }

    /// Parses the single packet in `bytes` and hands its view to `body`.
    func single<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer, RTCPPacketView) throws -> R) throws -> R {
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            #expect(iterator.next() == nil)
            #expect(!iterator.isMalformed)
            #expect(view.length == buffer.count)
            return try body(buffer, view)
        }
    }

    @Test("PLI round trip")
    func pictureLossIndication() throws {
        let (bytes, length) = written(size: 12) {
            RTCPWriter.writePictureLossIndication(senderSSRC: 0xA, mediaSSRC: 0xB, into: $0, at: $1)
        }
        #expect(length == 12)
        try single(bytes) { buffer, view in
            let feedback = try #require(RTCPFeedback(view: view, in: buffer))
            #expect(feedback.isPictureLossIndication)
            #expect(feedback.senderSSRC == 0xA && feedback.mediaSSRC == 0xB)
            #expect(feedback.fciLength == 0)
        }
    }

    @Test("FIR round trip")
    func fullIntraRequest() throws {
        let (bytes, length) = written(size: 20) {
            RTCPWriter.writeFullIntraRequest(senderSSRC: 0xA, mediaSSRC: 0xB, sequenceNumber: 9, into: $0, at: $1)
        }
        #expect(length == 20)
        try single(bytes) { buffer, view in
            let feedback = try #require(RTCPFeedback(view: view, in: buffer))
            #expect(feedback.isFullIntraRequest)
            #expect(feedback.senderSSRC == 0xA)
            #expect(feedback.mediaSSRC == 0, "RFC 5104 puts the target in the FCI")
            #expect(feedback.firEntryCount == 1)
            let entry = try #require(feedback.firEntry(at: 0, in: buffer))
            #expect(entry.ssrc == 0xB && entry.sequenceNumber == 9)
        }
    }

    @Test("NACK round trip")
    func genericNACK() throws {
        let (bytes, length) = written(size: 16) {
            RTCPWriter.writeGenericNACK(senderSSRC: 1, mediaSSRC: 2, packetID: 65535, lostBitmask: 0x0003, into: $0, at: $1)
        }
        #expect(length == 16)
        try single(bytes) { buffer, view in
            let feedback = try #require(RTCPFeedback(view: view, in: buffer))
            #expect(feedback.isGenericNACK)
            #expect(feedback.nackEntryCount == 1)
            let entry = try #require(feedback.nackEntry(at: 0, in: buffer))
            var lost: [UInt16] = []
            entry.forEachLost { lost.append($0) }
            #expect(lost == [65535, 0, 1])
        }
    }

    @Test("SR round trip")
    func senderReport() throws {
        let (bytes, length) = written(size: 28) {
            RTCPWriter.writeSenderReport(
                ssrc: 0x1234, ntpTimestamp: 0x0102_0304_0506_0708, rtpTimestamp: 90_000,
                packetCount: 10, octetCount: 12_000, into: $0, at: $1)
        }
        #expect(length == 28)
        try single(bytes) { buffer, view in
            let report = try #require(RTCPSenderReport(view: view, in: buffer))
            #expect(report.ssrc == 0x1234)
            #expect(report.ntpTimestamp == 0x0102_0304_0506_0708)
            #expect(report.rtpTimestamp == 90_000)
            #expect(report.packetCount == 10 && report.octetCount == 12_000)
            #expect(report.reportCount == 0)
        }
    }

    /// Blocks for the receiver report round trip, including clamped losses.
    static let blocks: [(written: RTCPReportBlock?, read: RTCPReportBlock?)] = {
        let plain = RTCPReportBlock(
            ssrc: 5, fractionLost: 128, cumulativeLost: 1000, extendedHighestSequence: 0x0002_0010,
            jitter: 20, lastSenderReport: 0xABCD_0000, delaySinceLastSenderReport: 0x0000_8000)
        var negative = plain
        negative.cumulativeLost = -5
        var huge = plain
        huge.cumulativeLost = Int32.max
        var hugeClamped = plain
        hugeClamped.cumulativeLost = 0x7F_FFFF
        var tiny = plain
        tiny.cumulativeLost = Int32.min
        var tinyClamped = plain
        tinyClamped.cumulativeLost = -0x80_0000
        return [(nil, nil), (plain, plain), (negative, negative), (huge, hugeClamped), (tiny, tinyClamped)]
    }()

    @Test("RR round trip", arguments: blocks)
    func receiverReport(_ row: (written: RTCPReportBlock?, read: RTCPReportBlock?)) throws {
        let expectedLength = row.written == nil ? 8 : 32
        let (bytes, length) = written(size: expectedLength) {
            RTCPWriter.writeReceiverReport(ssrc: 77, block: row.written, into: $0, at: $1)
        }
        #expect(length == expectedLength)
        try single(bytes) { buffer, view in
            let report = try #require(RTCPReceiverReport(view: view, in: buffer))
            #expect(report.ssrc == 77)
            #expect(report.reportCount == (row.written == nil ? 0 : 1))
            #expect(report.reportBlock(at: 0, in: buffer) == row.read)
        }
    }

    @Test("BYE round trip")
    func goodbye() throws {
        let (bytes, length) = written(size: 8) { RTCPWriter.writeGoodbye(ssrc: 0xFEED, into: $0, at: $1) }
        #expect(length == 8)
        try single(bytes) { buffer, view in
            let bye = try #require(RTCPGoodbye(view: view, in: buffer))
            #expect(bye.sourceCount == 1)
            #expect(bye.ssrc(at: 0, in: buffer) == 0xFEED)
        }
    }

    @Test("writers build a compound packet at increasing offsets")
    func compound() throws {
        var bytes = [UInt8](repeating: 0, count: 28 + 12 + 16)
        let total: Int? = bytes.withUnsafeMutableBytes { buffer in
            guard
                let first = RTCPWriter.writeSenderReport(
                    ssrc: 1, ntpTimestamp: 2, rtpTimestamp: 3, packetCount: 4, octetCount: 5, into: buffer, at: 0),
                let second = RTCPWriter.writePictureLossIndication(senderSSRC: 1, mediaSSRC: 9, into: buffer, at: first),
                let third = RTCPWriter.writeGenericNACK(
                    senderSSRC: 1, mediaSSRC: 9, packetID: 7, lostBitmask: 0, into: buffer, at: first + second)
            else { return nil }
            return first + second + third
        }
        #expect(total == bytes.count)
        let result = TestPacket.views(of: bytes)
        #expect(!result.malformed)
        #expect(result.views.map(\.packetType) == [200, 206, 205])
        #expect(result.views.map(\.offset) == [0, 28, 40])
    }

    /// Offsets at which a 12-byte PLI does not fit a 20-byte buffer.
    static let badOffsets = [-1, 9, 20, 21, Int.max]

    @Test("writers refuse offsets without room and write nothing", arguments: badOffsets)
    func noRoom(_ offset: Int) {
        let (bytes, length) = written(size: 20, offset: offset) {
            RTCPWriter.writePictureLossIndication(senderSSRC: 1, mediaSSRC: 2, into: $0, at: $1)
        }
        #expect(length == nil)
        #expect(bytes.allSatisfy { $0 == 0 })
        let sizes: [Int?] = [RTCPWriter.senderReportLength, RTCPWriter.goodbyeLength].map { size in
            var small = [UInt8](repeating: 0, count: size - 1)
            return small.withUnsafeMutableBytes { buffer in
                size == 28
                    ? RTCPWriter.writeSenderReport(ssrc: 1, ntpTimestamp: 1, rtpTimestamp: 1, packetCount: 1, octetCount: 1, into: buffer, at: 0)
                    : RTCPWriter.writeGoodbye(ssrc: 1, into: buffer, at: 0)
            }
        }
        #expect(sizes == [nil, nil])
    }
}
