import RTPWire
import STUNTestVectors
import Testing

@Suite("STUN: RFC 5769 test vectors")
struct STUNVectorTests {
    @Test("the test HMAC-SHA-1 matches FIPS 180 and RFC 2202, so it can judge the vectors")
    func testHMACIsRight() {
        #expect(STUNTestHMACSHA1.sha1(Array("abc".utf8)) == STUNTestVectors.bytes(hex: "a9993e364706816aba3e25717850c26c9cd0d89d"))
        #expect(
            STUNTestHMACSHA1.code(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
                == STUNTestVectors.bytes(hex: "b617318655057264e28bc0b6fb378c8ef146be00"))
    }

    @Test("CRC-32 gives the standard check value")
    func crcCheckValue() {
        let check = Array("123456789".utf8).withUnsafeBytes { STUNFingerprint.crc32($0) }
        #expect(check == 0xCBF4_3926)
    }

    @Test("2.1 sample request: header, attributes, fingerprint and integrity")
    func sampleRequest() throws {
        let bytes = STUNTestVectors.sampleRequest
        #expect(bytes.count == 108)
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingRequest)
        #expect(message.transactionID == STUNTransactionID(bytes: STUNTestVectors.transactionID))
        #expect(message.length == 108)
        #expect(message.fingerprint != nil)
        #expect(message.unknownComprehensionRequired.isEmpty)
        bytes.withUnsafeBytes { packet in
            #expect(message.username(in: packet).map { Array($0) } == Array("evtj:h6vY".utf8))
            #expect(message.software(in: packet).map { Array($0) } == Array("STUN test client".utf8))
            #expect(message.priority(in: packet) == 0x6E00_01FF)
            #expect(message.iceControlled(in: packet) == 0x932F_F9B1_5126_3B36)
            #expect(message.iceControlling(in: packet) == nil)
            #expect(message.hasUseCandidate(in: packet) == false)
        }
        // Integrity covers up to MESSAGE-INTEGRITY, with a length that leaves out FINGERPRINT.
        #expect(message.integritySignedLength == 76)
        #expect(message.integrityLengthField == 0x0050)
        #expect(STUNTestMessage.integrityVerifies(bytes, password: STUNTestVectors.password))
        #expect(!STUNTestMessage.integrityVerifies(bytes, password: "VOkJxbRl1RmTxUk/WvJxBT"))
    }

    @Test("2.2 sample IPv4 response: XOR-MAPPED-ADDRESS 192.0.2.1:32853")
    func sampleIPv4Response() throws {
        let bytes = STUNTestVectors.sampleIPv4Response
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingSuccessResponse)
        #expect(message.fingerprint != nil)
        let mapped = bytes.withUnsafeBytes { message.xorMappedAddress(in: $0) }
        #expect(mapped == STUNAddress(ipv4: 0xC000_0201, port: 32853))
        #expect(mapped?.description == "192.0.2.1:32853")
        #expect(bytes.withUnsafeBytes { message.software(in: $0).map { Array($0) } } == Array("test vector".utf8))
        #expect(STUNTestMessage.integrityVerifies(bytes, password: STUNTestVectors.password))
    }

    @Test("2.3 sample IPv6 response: XOR-MAPPED-ADDRESS [2001:db8:1234:5678:11:2233:4455:6677]:32853")
    func sampleIPv6Response() throws {
        let bytes = STUNTestVectors.sampleIPv6Response
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingSuccessResponse)
        let mapped = bytes.withUnsafeBytes { message.xorMappedAddress(in: $0) }
        #expect(mapped == STUNAddress(ipv6High: 0x2001_0DB8_1234_5678, low: 0x0011_2233_4455_6677, port: 32853))
        #expect(mapped?.description == "[2001:db8:1234:5678:11:2233:4455:6677]:32853")
        #expect(STUNTestMessage.integrityVerifies(bytes, password: STUNTestVectors.password))
    }

    @Test("the writer reproduces all three vectors byte for byte")
    func writerReproducesVectors() throws {
        let transactionID = try #require(STUNTransactionID(bytes: STUNTestVectors.transactionID))
        // The RFC pads with spaces where the writer pads with zeros, and padding is signed,
        // so the tests put the RFC's padding back before signing.
        let request = write(type: .bindingRequest, transactionID: transactionID) { writer, buffer in
            writer.append(.software, text: "STUN test client")
            writer.append(.priority, uint32: 0x6E00_01FF)
            writer.append(.iceControlled, uint64: 0x932F_F9B1_5126_3B36)
            writer.append(.username, text: "evtj:h6vY")
            for offset in (writer.length - 3)..<writer.length { buffer[offset] = 0x20 }
        }
        #expect(request == STUNTestVectors.sampleRequest)

        for (vector, address) in [
            (STUNTestVectors.sampleIPv4Response, STUNAddress(ipv4: 0xC000_0201, port: 32853)),
            (STUNTestVectors.sampleIPv6Response, STUNAddress(ipv6High: 0x2001_0DB8_1234_5678, low: 0x0011_2233_4455_6677, port: 32853)),
        ] {
            let response = write(type: .bindingSuccessResponse, transactionID: transactionID) { writer, buffer in
                writer.append(.software, text: "test vector")
                buffer[writer.length - 1] = 0x20
                writer.appendXORAddress(address)
            }
            #expect(response == vector, "\(address)")
        }
    }

    /// Writes a message with `body`, then MESSAGE-INTEGRITY (test HMAC, RFC password) and FINGERPRINT.
    private func write(
        type: STUNMessageType,
        transactionID: STUNTransactionID,
        body: (inout STUNMessageWriter, UnsafeMutableRawBufferPointer) -> Void
    ) -> [UInt8] {
        var buffer = [UInt8](repeating: 0xEE, count: 256)
        let length = buffer.withUnsafeMutableBytes { raw -> Int? in
            var writer = STUNMessageWriter(into: raw, type: type, transactionID: transactionID)
            body(&writer, raw)
            guard let slot = writer.appendIntegrityPlaceholder() else { return nil }
            let code = STUNTestHMACSHA1.code(
                key: Array(STUNTestVectors.password.utf8), message: Array(raw[0..<slot.signedLength]))
            for (index, byte) in code.enumerated() { raw[slot.codeOffset + index] = byte }
            writer.appendFingerprint()
            return writer.finish()
        }
        return Array(buffer.prefix(length ?? 0))
    }
}
