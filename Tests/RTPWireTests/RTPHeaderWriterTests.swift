import RTPWire
import Testing

/// Header fields for a write-then-parse round trip.
struct RTPWriteCase: Sendable, CustomStringConvertible {
    var marker: Bool
    var payloadType: UInt8
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var ssrc: UInt32
    var description: String { "M=\(marker) PT=\(payloadType) SN=\(sequenceNumber) TS=\(timestamp) SSRC=\(ssrc)" }
}

@Suite("RTP header writing")
struct RTPHeaderWriterTests {
    static let roundTrips: [RTPWriteCase] = [
        RTPWriteCase(marker: false, payloadType: 0, sequenceNumber: 0, timestamp: 0, ssrc: 0),
        RTPWriteCase(marker: true, payloadType: 127, sequenceNumber: 65535, timestamp: .max, ssrc: .max),
        RTPWriteCase(marker: true, payloadType: 96, sequenceNumber: 0x8000, timestamp: 90_000, ssrc: 0x1234_5678),
        RTPWriteCase(marker: false, payloadType: 111, sequenceNumber: 1, timestamp: 48_000, ssrc: 42),
    ]

    @Test("write then parse returns the same fields", arguments: roundTrips)
    func roundTrip(_ fields: RTPWriteCase) throws {
        var bytes = [UInt8](repeating: 0xEE, count: 12 + 5)
        let written = bytes.withUnsafeMutableBytes { buffer in
            RTPHeaderWriter.write(
                marker: fields.marker, payloadType: fields.payloadType,
                sequenceNumber: fields.sequenceNumber, timestamp: fields.timestamp, ssrc: fields.ssrc,
                into: buffer)
        }
        #expect(written == 12)
        let header = try #require(RTPHeader.parse(bytes))
        #expect(header.marker == fields.marker)
        #expect(header.payloadType == fields.payloadType)
        #expect(header.sequenceNumber == fields.sequenceNumber)
        #expect(header.timestamp == fields.timestamp)
        #expect(header.ssrc == fields.ssrc)
        #expect(header.csrcCount == 0 && !header.hasExtension && !header.hasPadding)
        #expect(header.payloadLength == 5)
    }

    @Test("write refuses a buffer shorter than 12 bytes", arguments: [0, 1, 11])
    func writeNeedsRoom(_ size: Int) {
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes {
            RTPHeaderWriter.write(marker: true, payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3, into: $0)
        }
        #expect(written == nil)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test("in-place setters change only their field")
    func setters() throws {
        var bytes = TestPacket.rtp(marker: true, payloadType: 96, csrcs: [9], extensionProfile: 0xBEDE, extensionData: [0x10, 7, 0, 0])
        let before = try #require(RTPHeader.parse(bytes))
        bytes.withUnsafeMutableBytes { buffer in
            let start = buffer.baseAddress!
            RTPHeaderWriter.setSequenceNumber(0xFFFE, in: start)
            RTPHeaderWriter.setTimestamp(0x0A0B_0C0D, in: start)
            RTPHeaderWriter.setSSRC(0xCAFE_BABE, in: start)
            RTPHeaderWriter.setPayloadType(0xFF, in: start)  // only 7 bits are kept
        }
        var after = try #require(RTPHeader.parse(bytes))
        #expect(after.sequenceNumber == 0xFFFE)
        #expect(after.timestamp == 0x0A0B_0C0D)
        #expect(after.ssrc == 0xCAFE_BABE)
        #expect(after.payloadType == 127)
        #expect(after.marker, "setPayloadType keeps the marker")
        var expected = before
        expected.sequenceNumber = 0xFFFE
        expected.timestamp = 0x0A0B_0C0D
        expected.ssrc = 0xCAFE_BABE
        expected.payloadType = 127
        #expect(after == expected)

        bytes.withUnsafeMutableBytes { RTPHeaderWriter.setMarker(false, in: $0.baseAddress!) }
        after = try #require(RTPHeader.parse(bytes))
        #expect(!after.marker)
        #expect(after.payloadType == 127, "setMarker keeps the payload type")
        bytes.withUnsafeMutableBytes { RTPHeaderWriter.setMarker(true, in: $0.baseAddress!) }
        #expect(RTPHeader.parse(bytes)?.marker == true)
    }

    @Test("setters work at an unaligned address")
    func unalignedSetters() {
        var bytes = [0x00] + TestPacket.rtp()
        bytes.withUnsafeMutableBytes { buffer in
            let start = buffer.baseAddress! + 1
            RTPHeaderWriter.setSequenceNumber(0x0102, in: start)
            RTPHeaderWriter.setSSRC(0x0304_0506, in: start)
        }
        let header = RTPHeader.parse(Array(bytes.dropFirst()))
        #expect(header?.sequenceNumber == 0x0102)
        #expect(header?.ssrc == 0x0304_0506)
    }
}
