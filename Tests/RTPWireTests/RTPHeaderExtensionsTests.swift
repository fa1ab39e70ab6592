import RTPWire
import Testing

/// An extension block, an identifier to look for and the data expected for it.
struct ExtensionFindCase: Sendable, CustomStringConvertible {
    var description: String
    var profile: UInt16
    var data: [UInt8]
    var id: UInt8
    var expected: [UInt8]?
}

/// A renumbering request and its expected outcome.
struct ExtensionRenumberCase: Sendable, CustomStringConvertible {
    var description: String
    var profile: UInt16
    var data: [UInt8]
    var from: UInt8
    var to: UInt8
    var succeeds: Bool
}

@Suite("RTP header extensions")
struct RTPHeaderExtensionsTests {
    // One-byte block: id 1 (1 byte), padding, id 3 (2 bytes), id 5 (4 bytes), padding to 12.
    static let oneByteBlock: [UInt8] = [0x10, 0xAA, 0x00, 0x31, 0xB1, 0xB2, 0x53, 0xC1, 0xC2, 0xC3, 0xC4, 0x00]
    // Two-byte block: id 1 (0 bytes), padding, id 200 (3 bytes), id 7 (1 byte), padding to 12.
    static let twoByteBlock: [UInt8] = [0x01, 0x00, 0x00, 0xC8, 0x03, 0xD1, 0xD2, 0xD3, 0x07, 0x01, 0xE1, 0x00]

    static let findCases: [ExtensionFindCase] = [
        ExtensionFindCase(description: "one-byte first element", profile: 0xBEDE, data: oneByteBlock, id: 1, expected: [0xAA]),
        ExtensionFindCase(description: "one-byte after padding", profile: 0xBEDE, data: oneByteBlock, id: 3, expected: [0xB1, 0xB2]),
        ExtensionFindCase(description: "one-byte last element", profile: 0xBEDE, data: oneByteBlock, id: 5, expected: [0xC1, 0xC2, 0xC3, 0xC4]),
        ExtensionFindCase(description: "one-byte missing id", profile: 0xBEDE, data: oneByteBlock, id: 2, expected: nil),
        ExtensionFindCase(description: "one-byte id 0 is never found", profile: 0xBEDE, data: oneByteBlock, id: 0, expected: nil),
        ExtensionFindCase(description: "one-byte id 15 is reserved", profile: 0xBEDE, data: oneByteBlock, id: 15, expected: nil),
        ExtensionFindCase(
            description: "one-byte id 15 stops the walk", profile: 0xBEDE,
            data: [0x10, 0xAA, 0xF0, 0x00, 0x20, 0xBB, 0x00, 0x00], id: 2, expected: nil),
        ExtensionFindCase(
            description: "one-byte element before id 15 is found", profile: 0xBEDE,
            data: [0x10, 0xAA, 0xF0, 0x00, 0x20, 0xBB, 0x00, 0x00], id: 1, expected: [0xAA]),
        ExtensionFindCase(
            description: "one-byte element longer than the block", profile: 0xBEDE,
            data: [0x10, 0xAA, 0x23, 0x01], id: 2, expected: nil),
        ExtensionFindCase(
            description: "one-byte 16-byte element", profile: 0xBEDE,
            data: [0x4F] + Array(1...16) + [0, 0, 0], id: 4, expected: Array(1...16)),
        ExtensionFindCase(description: "two-byte empty element", profile: 0x1000, data: twoByteBlock, id: 1, expected: []),
        ExtensionFindCase(description: "two-byte id above 14", profile: 0x1000, data: twoByteBlock, id: 200, expected: [0xD1, 0xD2, 0xD3]),
        ExtensionFindCase(description: "two-byte with app bits", profile: 0x100F, data: twoByteBlock, id: 7, expected: [0xE1]),
        ExtensionFindCase(description: "two-byte missing id", profile: 0x1000, data: twoByteBlock, id: 8, expected: nil),
        ExtensionFindCase(
            description: "two-byte element longer than the block", profile: 0x1000,
            data: [0x05, 0x09, 0x01, 0x02], id: 5, expected: nil),
        ExtensionFindCase(
            description: "two-byte header cut at the end", profile: 0x1000,
            data: [0x00, 0x00, 0x00, 0x05], id: 5, expected: nil),
        ExtensionFindCase(description: "unknown profile", profile: 0x1234, data: oneByteBlock, id: 1, expected: nil),
    ]

    @Test("find returns the element data", arguments: findCases)
    func find(_ testCase: ExtensionFindCase) throws {
        let bytes = TestPacket.rtp(extensionProfile: testCase.profile, extensionData: testCase.data)
        let header = try #require(RTPHeader.parse(bytes))
        let found: [UInt8]? = bytes.withUnsafeBytes { buffer in
            RTPHeaderExtensions.find(id: testCase.id, in: buffer, header: header).map { Array(buffer[$0]) }
        }
        #expect(found == testCase.expected)
    }

    @Test("find returns nil without an extension block")
    func findWithoutExtension() throws {
        let bytes = TestPacket.rtp()
        let header = try #require(RTPHeader.parse(bytes))
        let found = bytes.withUnsafeBytes { RTPHeaderExtensions.find(id: 1, in: $0, header: header) }
        #expect(found == nil)
        #expect(!RTPHeaderExtensions.usesElementForm(header))
    }

    @Test("find refuses a header that does not match a shorter buffer")
    func findWithForeignHeader() throws {
        let bytes = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: Self.oneByteBlock)
        let header = try #require(RTPHeader.parse(bytes))
        let short = Array(bytes.prefix(20))
        let found = short.withUnsafeBytes { RTPHeaderExtensions.find(id: 5, in: $0, header: header) }
        #expect(found == nil)
    }

    static let renumberCases: [ExtensionRenumberCase] = [
        ExtensionRenumberCase(description: "one-byte 3 -> 9", profile: 0xBEDE, data: oneByteBlock, from: 3, to: 9, succeeds: true),
        ExtensionRenumberCase(description: "one-byte 1 -> 14", profile: 0xBEDE, data: oneByteBlock, from: 1, to: 14, succeeds: true),
        ExtensionRenumberCase(description: "one-byte to 15 refused", profile: 0xBEDE, data: oneByteBlock, from: 1, to: 15, succeeds: false),
        ExtensionRenumberCase(description: "one-byte to 0 refused", profile: 0xBEDE, data: oneByteBlock, from: 1, to: 0, succeeds: false),
        ExtensionRenumberCase(description: "one-byte missing id", profile: 0xBEDE, data: oneByteBlock, from: 4, to: 6, succeeds: false),
        ExtensionRenumberCase(description: "two-byte 200 -> 201", profile: 0x1000, data: twoByteBlock, from: 200, to: 201, succeeds: true),
        ExtensionRenumberCase(description: "two-byte 7 -> 255", profile: 0x1000, data: twoByteBlock, from: 7, to: 255, succeeds: true),
        ExtensionRenumberCase(description: "two-byte to 0 refused", profile: 0x1000, data: twoByteBlock, from: 7, to: 0, succeeds: false),
    ]

    @Test("renumber moves an element to a new id and keeps its data", arguments: renumberCases)
    func renumber(_ testCase: ExtensionRenumberCase) throws {
        var bytes = TestPacket.rtp(extensionProfile: testCase.profile, extensionData: testCase.data)
        let original = bytes
        let header = try #require(RTPHeader.parse(bytes))
        let dataBefore: [UInt8]? = bytes.withUnsafeBytes { buffer in
            RTPHeaderExtensions.find(id: testCase.from, in: buffer, header: header).map { Array(buffer[$0]) }
        }
        let result = bytes.withUnsafeMutableBytes {
            RTPHeaderExtensions.renumber(in: $0, header: header, from: testCase.from, to: testCase.to)
        }
        #expect(result == testCase.succeeds)
        if testCase.succeeds {
            bytes.withUnsafeBytes { buffer in
                #expect(RTPHeaderExtensions.find(id: testCase.from, in: buffer, header: header) == nil)
                let moved = RTPHeaderExtensions.find(id: testCase.to, in: buffer, header: header).map { Array(buffer[$0]) }
                #expect(moved == dataBefore)
            }
            #expect(zip(bytes, original).filter { $0 != $1 }.count == 1, "exactly one byte changes")
        } else {
            #expect(bytes == original)
        }
    }

    /// Audio level byte and expected decoding.
    static let audioLevels: [(byte: UInt8, voice: Bool, level: UInt8)] = [
        (0x00, false, 0), (0x7F, false, 127), (0x80, true, 0), (0x9E, true, 30), (0xFF, true, 127),
    ]

    @Test("audio level in one-byte form", arguments: audioLevels)
    func audioLevelOneByte(_ row: (byte: UInt8, voice: Bool, level: UInt8)) throws {
        let bytes = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [0x20, 0xAA, 0x10, row.byte])
        let header = try #require(RTPHeader.parse(bytes))
        let decoded = bytes.withUnsafeBytes { RTPHeaderExtensions.audioLevel(in: $0, header: header, id: 1) }
        #expect(decoded?.voiceActivity == row.voice)
        #expect(decoded?.level == row.level)
    }

    @Test("audio level in two-byte form")
    func audioLevelTwoByte() throws {
        let bytes = TestPacket.rtp(extensionProfile: 0x1000, extensionData: [0x0A, 0x01, 0xA8, 0x00])
        let header = try #require(RTPHeader.parse(bytes))
        let decoded = bytes.withUnsafeBytes { RTPHeaderExtensions.audioLevel(in: $0, header: header, id: 10) }
        #expect(decoded?.voiceActivity == true)
        #expect(decoded?.level == 40)
    }

    @Test("audio level absent or empty gives nil")
    func audioLevelMissing() throws {
        let bytes = TestPacket.rtp(extensionProfile: 0x1000, extensionData: [0x0A, 0x00, 0x00, 0x00])
        let header = try #require(RTPHeader.parse(bytes))
        bytes.withUnsafeBytes { buffer in
            #expect(RTPHeaderExtensions.audioLevel(in: buffer, header: header, id: 10) == nil, "empty element")
            #expect(RTPHeaderExtensions.audioLevel(in: buffer, header: header, id: 11) == nil, "missing element")
        }
    }
}
