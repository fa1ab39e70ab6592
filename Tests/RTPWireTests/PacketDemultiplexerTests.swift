import RTPWire
import Testing

/// First two bytes, total length and the class RFC 7983 / RFC 5761 assign.
struct DemuxCase: Sendable, CustomStringConvertible {
    var first: UInt8
    var second: UInt8
    var length: Int
    var expected: PacketClass
    var description: String { "[\(first), \(second)] x\(length) -> \(expected)" }
}

@Suite("RFC 7983 demultiplexing")
struct PacketDemultiplexerTests {
    static let cases: [DemuxCase] = [
        DemuxCase(first: 0, second: 1, length: 20, expected: .stun),
        DemuxCase(first: 1, second: 1, length: 100, expected: .stun),
        DemuxCase(first: 3, second: 0, length: 20, expected: .stun),
        DemuxCase(first: 0, second: 1, length: 19, expected: .unknown),
        DemuxCase(first: 4, second: 0, length: 40, expected: .unknown),
        DemuxCase(first: 19, second: 0, length: 40, expected: .unknown),
        DemuxCase(first: 20, second: 0xFE, length: 40, expected: .dtls),
        DemuxCase(first: 22, second: 0xFE, length: 13, expected: .dtls),
        DemuxCase(first: 23, second: 0xFE, length: 12, expected: .unknown),
        DemuxCase(first: 63, second: 0, length: 40, expected: .dtls),
        DemuxCase(first: 64, second: 0, length: 40, expected: .unknown),  // TURN channel
        DemuxCase(first: 79, second: 0, length: 40, expected: .unknown),
        DemuxCase(first: 127, second: 0, length: 40, expected: .unknown),
        DemuxCase(first: 128, second: 96, length: 12, expected: .rtp),
        DemuxCase(first: 0x90, second: 0xE0, length: 100, expected: .rtp),  // marker + PT 96
        DemuxCase(first: 191, second: 0, length: 12, expected: .rtp),
        DemuxCase(first: 128, second: 96, length: 11, expected: .unknown),
        DemuxCase(first: 128, second: 191, length: 12, expected: .rtp),  // marker + PT 63
        DemuxCase(first: 0x80, second: 200, length: 28, expected: .rtcp),
        DemuxCase(first: 0x81, second: 201, length: 8, expected: .rtcp),
        DemuxCase(first: 0x81, second: 192, length: 8, expected: .rtcp),
        DemuxCase(first: 0x8F, second: 223, length: 8, expected: .rtcp),
        DemuxCase(first: 0x81, second: 206, length: 7, expected: .unknown),
        DemuxCase(first: 0x80, second: 224, length: 12, expected: .rtp),  // marker + PT 96
        DemuxCase(first: 192, second: 200, length: 40, expected: .unknown),  // version 3
        DemuxCase(first: 255, second: 0, length: 40, expected: .unknown),
    ]

    @Test("classifies by first byte, second byte and length", arguments: cases)
    func classify(_ testCase: DemuxCase) {
        var bytes = [UInt8](repeating: 0, count: testCase.length)
        if testCase.length > 0 { bytes[0] = testCase.first }
        if testCase.length > 1 { bytes[1] = testCase.second }
        let result = bytes.withUnsafeBytes { PacketDemultiplexer.classify($0) }
        #expect(result == testCase.expected)
    }

    @Test("empty and one-byte datagrams are unknown", arguments: [[], [0x80], [0x00], [0x16]] as [[UInt8]])
    func tiny(_ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { PacketDemultiplexer.classify($0) } == .unknown)
    }
}
