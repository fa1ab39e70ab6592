import RTPWire
import Testing

/// One well-formed packet and the header it must parse to.
struct RTPParseCase: Sendable, CustomStringConvertible {
    var description: String
    var bytes: [UInt8]
    var expected: RTPHeader
}

/// One malformed packet that must be rejected.
struct RTPRejectCase: Sendable, CustomStringConvertible {
    var description: String
    var bytes: [UInt8]
}

@Suite("RTP header parsing")
struct RTPHeaderTests {
    static let wellFormed: [RTPParseCase] = [
        RTPParseCase(
            description: "minimal header, empty payload",
            bytes: TestPacket.rtp(payload: []),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, headerLength: 12, payloadLength: 0)
        ),
        RTPParseCase(
            description: "marker and payload type 111",
            bytes: TestPacket.rtp(marker: true, payloadType: 111, sequenceNumber: 65535, timestamp: 0, ssrc: 0xFFFF_FFFF),
            expected: RTPHeader(
                marker: true, payloadType: 111, sequenceNumber: 65535, timestamp: 0,
                ssrc: 0xFFFF_FFFF, headerLength: 12, payloadLength: 4)
        ),
        RTPParseCase(
            description: "two CSRCs",
            bytes: TestPacket.rtp(csrcs: [0xAAAA_AAAA, 0xBBBB_BBBB]),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, csrcCount: 2, headerLength: 20, payloadLength: 4)
        ),
        RTPParseCase(
            description: "fifteen CSRCs",
            bytes: TestPacket.rtp(csrcs: Array(1...15), payload: [9]),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, csrcCount: 15, headerLength: 72, payloadLength: 1)
        ),
        RTPParseCase(
            description: "one-byte extension",
            bytes: TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [0x10, 0xAB, 0x00, 0x00]),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, hasExtension: true, extensionProfile: 0xBEDE, extensionOffset: 16,
                extensionLength: 4, headerLength: 20, payloadLength: 4)
        ),
        RTPParseCase(
            description: "two-byte extension after a CSRC",
            bytes: TestPacket.rtp(
                csrcs: [7], extensionProfile: 0x1000, extensionData: [0x05, 0x02, 0xAA, 0xBB, 0, 0, 0, 0]),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, csrcCount: 1, hasExtension: true, extensionProfile: 0x1000,
                extensionOffset: 20, extensionLength: 8, headerLength: 28, payloadLength: 4)
        ),
        RTPParseCase(
            description: "empty extension block",
            bytes: TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: []),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, hasExtension: true, extensionProfile: 0xBEDE, extensionOffset: 16,
                extensionLength: 0, headerLength: 16, payloadLength: 4)
        ),
        RTPParseCase(
            description: "padding of 3",
            bytes: TestPacket.rtp(padding: 3),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, hasPadding: true, headerLength: 12, payloadLength: 4, paddingLength: 3)
        ),
        RTPParseCase(
            description: "padding-only packet (probe)",
            bytes: TestPacket.rtp(payload: [], padding: 255),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, hasPadding: true, headerLength: 12, payloadLength: 0, paddingLength: 255)
        ),
        RTPParseCase(
            description: "CSRC, extension and padding together",
            bytes: TestPacket.rtp(
                csrcs: [1], extensionProfile: 0xBEDE, extensionData: [0x22, 1, 2, 3], payload: [5, 6], padding: 2),
            expected: RTPHeader(
                marker: false, payloadType: 96, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF,
                ssrc: 0x1122_3344, csrcCount: 1, hasPadding: true, hasExtension: true,
                extensionProfile: 0xBEDE, extensionOffset: 20, extensionLength: 4, headerLength: 24,
                payloadLength: 2, paddingLength: 2)
        ),
    ]

    @Test("parses well-formed packets", arguments: wellFormed)
    func parsesWellFormed(_ testCase: RTPParseCase) {
        let header = RTPHeader.parse(testCase.bytes)
        #expect(header == testCase.expected)
        if let header {
            #expect(header.headerLength + header.payloadLength + header.paddingLength == testCase.bytes.count)
        }
    }

    static let malformed: [RTPRejectCase] = {
        var cases: [RTPRejectCase] = []
        let valid = TestPacket.rtp()
        for length in 0...11 {
            cases.append(RTPRejectCase(description: "truncated to \(length) bytes", bytes: Array(valid.prefix(length))))
        }
        for version: UInt8 in [0, 1, 3] {
            var bytes = valid
            bytes[0] = (bytes[0] & 0x3F) | (version << 6)
            cases.append(RTPRejectCase(description: "version \(version)", bytes: bytes))
        }
        var csrcBeyond = TestPacket.rtp(payload: [1, 2, 3, 4])
        csrcBeyond[0] |= 0x02  // claims two CSRCs, only 4 bytes follow the fixed header
        cases.append(RTPRejectCase(description: "CSRC count beyond length", bytes: csrcBeyond))
        var csrcMax = TestPacket.rtp(payload: [])
        csrcMax[0] |= 0x0F
        cases.append(RTPRejectCase(description: "15 CSRCs in a 12-byte packet", bytes: csrcMax))
        var extensionLying = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [0x10, 1, 0, 0], payload: [])
        extensionLying[15] = 2  // two words claimed, one present
        cases.append(RTPRejectCase(description: "extension length beyond packet", bytes: extensionLying))
        var extensionHuge = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [], payload: [0, 0, 0, 0])
        extensionHuge[14] = 0xFF
        extensionHuge[15] = 0xFF
        cases.append(RTPRejectCase(description: "extension length 65535 words", bytes: extensionHuge))
        var extensionHeaderMissing = TestPacket.rtp(payload: [0xBE, 0xDE])
        extensionHeaderMissing[0] |= 0x10  // X set but only 2 bytes follow
        cases.append(RTPRejectCase(description: "extension header truncated", bytes: extensionHeaderMissing))
        var paddingZero = TestPacket.rtp(payload: [1, 2, 3, 0])
        paddingZero[0] |= 0x20
        cases.append(RTPRejectCase(description: "padding count 0", bytes: paddingZero))
        var paddingTooLarge = TestPacket.rtp(payload: [1, 2, 3, 5])
        paddingTooLarge[0] |= 0x20  // 5 bytes of padding but only 4 after the header
        cases.append(RTPRejectCase(description: "padding larger than payload", bytes: paddingTooLarge))
        var paddingIntoExtension = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [0x10, 1, 0, 0], payload: [2])
        paddingIntoExtension[0] |= 0x20
        paddingIntoExtension[paddingIntoExtension.count - 1] = 2
        cases.append(RTPRejectCase(description: "padding reaching into extension", bytes: paddingIntoExtension))
        return cases
    }()

    @Test("rejects malformed packets", arguments: malformed)
    func rejectsMalformed(_ testCase: RTPRejectCase) {
        #expect(RTPHeader.parse(testCase.bytes) == nil)
    }

    @Test("reads CSRCs by index")
    func readsCSRCs() throws {
        let bytes = TestPacket.rtp(csrcs: [0xAAAA_AAAA, 0xBBBB_BBBB])
        let header = try #require(RTPHeader.parse(bytes))
        bytes.withUnsafeBytes { buffer in
            #expect(header.csrc(at: 0, in: buffer) == 0xAAAA_AAAA)
            #expect(header.csrc(at: 1, in: buffer) == 0xBBBB_BBBB)
            #expect(header.csrc(at: 2, in: buffer) == nil)
            #expect(header.csrc(at: -1, in: buffer) == nil)
        }
        #expect(header.payloadOffset == 20)
    }

    @Test("reads from an unaligned start")
    func parsesUnaligned() throws {
        let bytes = [0xFF] + TestPacket.rtp(sequenceNumber: 0xABCD, timestamp: 0x0102_0304)
        let header = bytes.withUnsafeBytes { RTPHeader.parse(UnsafeRawBufferPointer(rebasing: $0[1...])) }
        #expect(header?.sequenceNumber == 0xABCD)
        #expect(header?.timestamp == 0x0102_0304)
    }
}
