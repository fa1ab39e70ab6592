import RTPWire
import Testing

@Suite("RTX unwrapping")
struct RTPRetransmissionTests {
    /// An RTX packet (PT 97, SSRC 0x55667788, sequence number 7) with a one-byte extension block,
    /// CSRC 9, the OSN 1234 and a 3-byte payload, padded with 4 bytes.
    static let wrapped: [UInt8] = [
        0xB1, 0xE1, 0x00, 0x07, 0x00, 0x01, 0x5F, 0x90, 0x55, 0x66, 0x77, 0x88,
        0x00, 0x00, 0x00, 0x09,
        0xBE, 0xDE, 0x00, 0x01, 0x10, 0x85, 0x00, 0x00,
        0x04, 0xD2, 0xAA, 0xBB, 0xCC,
        0x00, 0x00, 0x00, 0x04,
    ]

    @Test func restoresTheOriginalPacketTwoBytesOn() throws {
        var buffer = Self.wrapped
        let header = try #require(RTPHeader.parse(buffer))
        let original = try #require(
            buffer.withUnsafeMutableBytes {
                RTPRetransmission.unwrap($0.baseAddress!, header: header, originalSSRC: 0x0102_0304, originalPayloadType: 96)
            })
        #expect(original.offset == 2)
        #expect(original.length == Self.wrapped.count - 2)
        let bytes = Array(buffer[original.offset..<(original.offset + original.length)])
        // Marker kept, version/flags/CSRC count kept, new PT, OSN, same timestamp, original SSRC.
        #expect(Array(bytes[0..<12]) == [0xB1, 0xE0, 0x04, 0xD2, 0x00, 0x01, 0x5F, 0x90, 0x01, 0x02, 0x03, 0x04])
        #expect(Array(bytes[12..<24]) == Array(Self.wrapped[12..<24]))
        #expect(Array(bytes[24...]) == [0xAA, 0xBB, 0xCC, 0x00, 0x00, 0x00, 0x04])
        let reparsed = try #require(RTPHeader.parse(bytes))
        #expect(reparsed == original.header)
        #expect(reparsed.payloadLength == 3 && reparsed.paddingLength == 4)
        bytes.withUnsafeBytes { raw in
            #expect(RTPHeaderExtensions.audioLevel(in: raw, header: reparsed, id: 1)?.level == 5)
        }
    }

    @Test("packets without an OSN (padding-only probes) are left alone", arguments: [0, 1])
    func refusesPayloadsShorterThanTheOSN(payloadLength: Int) throws {
        var buffer: [UInt8] = [0xA0, 0x61, 0x00, 0x08, 0, 0, 0, 1, 0x55, 0x66, 0x77, 0x88]
        buffer += [UInt8](repeating: 0xAB, count: payloadLength) + [0, 0, 0, 4]
        let header = try #require(RTPHeader.parse(buffer))
        let before = buffer
        let original = buffer.withUnsafeMutableBytes {
            RTPRetransmission.unwrap($0.baseAddress!, header: header, originalSSRC: 1, originalPayloadType: 96)
        }
        #expect(original == nil)
        #expect(buffer == before)
    }
}
