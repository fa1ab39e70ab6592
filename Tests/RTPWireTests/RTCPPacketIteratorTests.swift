import RTPWire
import Testing

/// A compound packet and what iterating it must yield.
struct RTCPIterationCase: Sendable, CustomStringConvertible {
    var description: String
    var bytes: [UInt8]
    var expected: [RTCPPacketViewSummary]
    var malformed: Bool
}

@Suite("RTCP compound packet iteration")
struct RTCPPacketIteratorTests {
    static let receiverReport = TestPacket.rtcp(countOrFormat: 0, packetType: 201, body: [0, 0, 0, 1])
    static let pli = TestPacket.rtcp(countOrFormat: 1, packetType: 206, body: [0, 0, 0, 1, 0, 0, 0, 2])

    static let cases: [RTCPIterationCase] = [
        RTCPIterationCase(description: "empty buffer", bytes: [], expected: [], malformed: false),
        RTCPIterationCase(
            description: "single RR", bytes: receiverReport,
            expected: [RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 8)], malformed: false),
        RTCPIterationCase(
            description: "RR then PLI", bytes: receiverReport + pli,
            expected: [
                RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 8),
                RTCPPacketViewSummary(packetType: 206, countOrFormat: 1, offset: 8, length: 12),
            ], malformed: false),
        RTCPIterationCase(
            description: "length pointing past the end",
            bytes: receiverReport + TestPacket.rtcp(countOrFormat: 1, packetType: 206, body: [0, 0, 0, 1, 0, 0, 0, 2], lengthWords: 9),
            expected: [RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 8)], malformed: true),
        RTCPIterationCase(
            description: "length 0 is a 4-byte packet and iteration advances",
            bytes: TestPacket.rtcp(countOrFormat: 0, packetType: 201, body: [], lengthWords: 0)
                + TestPacket.rtcp(countOrFormat: 0, packetType: 203, body: [], lengthWords: 0),
            expected: [
                RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 4),
                RTCPPacketViewSummary(packetType: 203, countOrFormat: 0, offset: 4, length: 4),
            ], malformed: false),
        RTCPIterationCase(
            description: "length 0 in front of a longer body",
            bytes: TestPacket.rtcp(countOrFormat: 0, packetType: 201, body: [0, 0, 0, 1], lengthWords: 0),
            expected: [RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 4)],
            malformed: true),  // the SSRC bytes then read as a header of version 0
        RTCPIterationCase(
            description: "version 1 first packet",
            bytes: TestPacket.rtcp(countOrFormat: 0, packetType: 201, body: [0, 0, 0, 1], version: 1),
            expected: [], malformed: true),
        RTCPIterationCase(
            description: "version 3 second packet", bytes: receiverReport + TestPacket.rtcp(countOrFormat: 0, packetType: 201, body: [0, 0, 0, 1], version: 3),
            expected: [RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 8)], malformed: true),
        RTCPIterationCase(
            description: "trailing bytes that are not a multiple of 4", bytes: receiverReport + [0x80, 0xC9],
            expected: [RTCPPacketViewSummary(packetType: 201, countOrFormat: 0, offset: 0, length: 8)], malformed: true),
        RTCPIterationCase(
            description: "truncated after the header", bytes: Array(pli.prefix(10)),
            expected: [], malformed: true),
        RTCPIterationCase(
            description: "padding count 0", bytes: [0xA0, 201, 0, 1, 0, 0, 0, 0],
            expected: [], malformed: true),
        RTCPIterationCase(
            description: "padding larger than the body", bytes: [0xA0, 201, 0, 1, 0, 0, 0, 5],
            expected: [], malformed: true),
    ]

    @Test("yields the packets and flags lying headers", arguments: cases)
    func iterate(_ testCase: RTCPIterationCase) {
        let result = TestPacket.views(of: testCase.bytes)
        #expect(result.views == testCase.expected)
        #expect(result.malformed == testCase.malformed)
    }

    @Test("padding on the last packet is reported")
    func padding() {
        // RR with 4 bytes of padding: length 3 words + 1 = 16 bytes.
        let bytes: [UInt8] = [0xA0, 201, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4]
        bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let view = iterator.next()
            #expect(view?.hasPadding == true)
            #expect(view?.paddingLength == 4)
            #expect(view?.contentLength == 12)
            #expect(iterator.next() == nil)
            #expect(!iterator.isMalformed)
        }
    }

    @Test("after a malformed header the iterator stays finished")
    func staysFinished() {
        let bytes: [UInt8] = [0x40, 201, 0, 1, 0, 0, 0, 1] + Self.receiverReport
        bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            #expect(iterator.next() == nil)
            #expect(iterator.isMalformed)
            #expect(iterator.next() == nil)
            #expect(iterator.isMalformed)
        }
    }

    @Test("any byte soup terminates", arguments: 0..<64)
    func fuzzTerminates(_ seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let length = Int(generator.next() % 200)
        var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        if !bytes.isEmpty { bytes[0] = 0x80 | (bytes[0] & 0x3F) }
        let result = TestPacket.views(of: bytes)
        #expect(result.views.count <= length / 4)
        var end = 0
        for view in result.views {
            #expect(view.offset == end)
            end += view.length
        }
        #expect(end <= length)
        #expect(result.malformed == (end != length))
    }
}
