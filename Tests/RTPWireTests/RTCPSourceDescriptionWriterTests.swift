import RTPWire
import Testing

@Suite("RTCP SDES writer")
struct RTCPSourceDescriptionWriterTests {
    @Test("CNAME chunk ends with nulls on a word boundary", arguments: [1, 2, 5, 6, 16, 255])
    func cname(_ textLength: Int) throws {
        let text = [UInt8](repeating: 0x61, count: textLength)
        var bytes = [UInt8](repeating: 0xEE, count: 300)
        let length = try #require(
            bytes.withUnsafeMutableBytes { buffer in
                text.withUnsafeBytes { RTCPWriter.writeSourceDescriptionCNAME(ssrc: 0x5EED, cname: $0, into: buffer, at: 0) }
            })
        #expect(length % 4 == 0)
        #expect(length >= 4 + 4 + 2 + textLength + 1)
        #expect(length < 4 + 4 + 2 + textLength + 1 + 4)
        let packet = Array(bytes.prefix(length))
        let result = TestPacket.views(of: packet)
        #expect(!result.malformed)
        #expect(result.views == [RTCPPacketViewSummary(packetType: 202, countOrFormat: 1, offset: 0, length: length)])
        #expect(Array(packet[4..<8]) == [0, 0, 0x5E, 0xED])
        #expect(packet[8] == 1 && Int(packet[9]) == textLength)
        #expect(Array(packet[10..<(10 + textLength)]) == text)
        #expect(packet[(10 + textLength)...].allSatisfy { $0 == 0 })
        #expect(bytes[length] == 0xEE, "nothing written past the packet")
    }

    @Test("empty or too long CNAME, or no room, writes nothing", arguments: [(0, 64), (256, 400), (16, 27)])
    func refused(_ row: (textLength: Int, bufferSize: Int)) {
        let text = [UInt8](repeating: 0x61, count: row.textLength)
        var bytes = [UInt8](repeating: 0, count: row.bufferSize)
        let length = bytes.withUnsafeMutableBytes { buffer in
            text.withUnsafeBytes { RTCPWriter.writeSourceDescriptionCNAME(ssrc: 1, cname: $0, into: buffer, at: 0) }
        }
        #expect(length == nil)
        #expect(bytes.allSatisfy { $0 == 0 })
    }
}
