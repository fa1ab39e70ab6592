import RTPWire
import STUNTestVectors
import Testing

@Suite("STUN: malformed messages")
struct STUNMalformedMessageTests {
    static let request = STUNTestVectors.sampleRequest
    static let integrity20 = [UInt8](repeating: 0xAB, count: 20)

    /// The sample request with `change` applied.
    static func request(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = request
        change(&bytes)
        return bytes
    }

    static let cases: [STUNMalformedCase] = [
        STUNMalformedCase(name: "empty datagram", bytes: [], error: .truncatedHeader),
        STUNMalformedCase(name: "19 bytes of header", bytes: Array(request.prefix(19)), error: .truncatedHeader),
        STUNMalformedCase(name: "top bits of the type set", bytes: request { $0[0] |= 0x40 }, error: .notSTUN),
        STUNMalformedCase(name: "wrong magic cookie", bytes: request { $0[4] ^= 0x01 }, error: .badMagicCookie),
        STUNMalformedCase(name: "length not a multiple of 4", bytes: request { $0[3] = 0x57 }, error: .lengthNotMultipleOfFour),
        STUNMalformedCase(name: "length past the datagram", bytes: request { $0[3] = 0x5C }, error: .lengthMismatch),
        STUNMalformedCase(name: "datagram cut short", bytes: Array(request.prefix(104)), error: .lengthMismatch),
        STUNMalformedCase(name: "bytes after the message", bytes: request + [0, 0, 0, 0], error: .lengthMismatch),
        STUNMalformedCase(name: "attribute overrunning the message", bytes: request { $0[22] = 0x01 }, error: .attributeOverrun),
        STUNMalformedCase(
            name: "last attribute longer than what is left",
            bytes: [0x00, 0x01, 0x00, 0x08, 0x21, 0x12, 0xA4, 0x42] + STUNTestVectors.transactionID
                + [0x80, 0x22, 0x00, 0x08, 0x61, 0x62, 0x63, 0x64],
            error: .attributeOverrun),
        STUNMalformedCase(
            name: "attribute between MESSAGE-INTEGRITY and FINGERPRINT",
            bytes: STUNTestMessage.build(
                attributes: [(0x0006, Array("a:b".utf8)), (0x0008, integrity20), (0x0024, [0, 0, 0, 1])], fingerprint: true),
            error: .attributeAfterIntegrity),
        STUNMalformedCase(
            name: "MESSAGE-INTEGRITY twice",
            bytes: STUNTestMessage.build(attributes: [(0x0008, integrity20), (0x0008, integrity20)]),
            error: .attributeAfterIntegrity),
        STUNMalformedCase(
            name: "attribute after FINGERPRINT",
            bytes: request { bytes in
                bytes[3] += 8
                bytes += [0x00, 0x24, 0x00, 0x04, 0, 0, 0, 1]
            },
            error: .attributeAfterFingerprint),
        STUNMalformedCase(name: "FINGERPRINT value wrong", bytes: request { $0[107] ^= 0x01 }, error: .fingerprintMismatch),
        STUNMalformedCase(name: "SOFTWARE changed under FINGERPRINT", bytes: request { $0[30] ^= 0x01 }, error: .fingerprintMismatch),
        STUNMalformedCase(name: "transaction ID changed under FINGERPRINT", bytes: request { $0[19] ^= 0x80 }, error: .fingerprintMismatch),
        STUNMalformedCase(
            name: "MESSAGE-INTEGRITY value wrong",
            bytes: request { bytes in
                bytes[90] ^= 0x01
                STUNTestMessage.refreshFingerprint(&bytes)
            },
            error: nil),
        STUNMalformedCase(
            name: "USERNAME changed under MESSAGE-INTEGRITY",
            bytes: request { bytes in
                bytes[70] = UInt8(ascii: "X")
                STUNTestMessage.refreshFingerprint(&bytes)
            },
            error: nil),
        STUNMalformedCase(
            name: "MESSAGE-INTEGRITY of 16 bytes",
            bytes: STUNTestMessage.build(attributes: [(0x0008, Array(integrity20.prefix(16)))]),
            error: .badAttributeLength(.messageIntegrity)),
        STUNMalformedCase(
            name: "PRIORITY of 3 bytes",
            bytes: STUNTestMessage.build(attributes: [(0x0024, [1, 2, 3])]),
            error: .badAttributeLength(.priority)),
        STUNMalformedCase(
            name: "USE-CANDIDATE with a value",
            bytes: STUNTestMessage.build(attributes: [(0x0025, [1])]),
            error: .badAttributeLength(.useCandidate)),
        STUNMalformedCase(
            name: "ICE-CONTROLLING of 4 bytes",
            bytes: STUNTestMessage.build(attributes: [(0x802A, [1, 2, 3, 4])]),
            error: .badAttributeLength(.iceControlling)),
        STUNMalformedCase(
            name: "FINGERPRINT of 8 bytes",
            bytes: STUNTestMessage.build(attributes: [(0x8028, [UInt8](repeating: 0, count: 8))]),
            error: .badAttributeLength(.fingerprint)),
    ]

    @Test("each broken message gives its own error, or fails only its integrity", arguments: cases)
    func malformed(_ row: STUNMalformedCase) {
        let result = STUNTestMessage.parse(row.bytes)
        if let expected = row.error {
            #expect(throws: expected) { try result.get() }
        } else {
            #expect(throws: Never.self) { try result.get() }
            #expect(!STUNTestMessage.integrityVerifies(row.bytes, password: STUNTestVectors.password))
        }
    }

    @Test("header errors are told apart from attribute errors")
    func headerErrors() {
        #expect(STUNParseError.badMagicCookie.isHeaderError)
        #expect(STUNParseError.lengthMismatch.isHeaderError)
        #expect(!STUNParseError.attributeOverrun.isHeaderError)
        #expect(!STUNParseError.fingerprintMismatch.isHeaderError)
    }

    @Test("a header with no attributes is a valid, empty message")
    func headerOnly() throws {
        let bytes = STUNTestMessage.build(attributes: [])
        #expect(bytes.count == 20)
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingRequest)
        #expect(message.integrity == nil && message.fingerprint == nil)
        #expect(bytes.withUnsafeBytes { message.username(in: $0) } == nil)
        #expect(message.integrityInput(from: UnsafeRawBufferPointer(start: nil, count: 0), into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test("MESSAGE-INTEGRITY-SHA256 may follow MESSAGE-INTEGRITY and is not unknown")
    func integritySHA256() throws {
        let bytes = STUNTestMessage.build(
            attributes: [(0x0008, Self.integrity20), (0x001C, [UInt8](repeating: 1, count: 32))], fingerprint: true)
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.unknownComprehensionRequired.isEmpty)
        #expect(message.integritySignedLength == 20)
        #expect(message.integrityLengthField == 24)
    }

    @Test("integrity input needs room and the right packet")
    func integrityInputBounds() throws {
        let bytes = STUNTestVectors.sampleRequest
        let message = try STUNTestMessage.parse(bytes).get()
        var small = [UInt8](repeating: 0, count: 75)
        var exact = [UInt8](repeating: 0, count: 76)
        bytes.withUnsafeBytes { packet in
            #expect(small.withUnsafeMutableBytes { message.integrityInput(from: packet, into: $0) } == nil)
            #expect(exact.withUnsafeMutableBytes { message.integrityInput(from: packet, into: $0) } == 76)
            let shorter = UnsafeRawBufferPointer(rebasing: packet[0..<40])
            #expect(exact.withUnsafeMutableBytes { message.integrityInput(from: shorter, into: $0) } == nil)
        }
        #expect(exact[3] == 0x50, "the copied length field ends at MESSAGE-INTEGRITY")
        #expect(Array(exact[4...]) == Array(bytes[4..<76]))
    }
}
