import RTPWire
import Testing

@Suite("STUN: writing and reading back")
struct STUNMessageWriterTests {
    static let transactionID = STUNTransactionID(high: 0x0102_0304, low: 0x0506_0708_090A_0B0C)

    /// Writes with `body` into a 512-byte buffer and returns the message, or nil on failure.
    static func write(
        type: STUNMessageType = .bindingRequest,
        capacity: Int = 512,
        _ body: (inout STUNMessageWriter) -> Void
    ) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0xEE, count: capacity)
        let length = buffer.withUnsafeMutableBytes { raw -> Int? in
            var writer = STUNMessageWriter(into: raw, type: type, transactionID: transactionID)
            body(&writer)
            return writer.finish()
        }
        return length.map { Array(buffer.prefix($0)) }
    }

    @Test("message types interleave method and class bits as RFC 8489 shows")
    func messageTypes() {
        #expect(STUNMessageType.bindingRequest.rawValue == 0x0001)
        #expect(STUNMessageType.bindingIndication.rawValue == 0x0011)
        #expect(STUNMessageType.bindingSuccessResponse.rawValue == 0x0101)
        #expect(STUNMessageType.bindingErrorResponse.rawValue == 0x0111)
        for raw in stride(from: UInt16(0), through: 0x3FFF, by: 7) {
            #expect(STUNMessageType(rawValue: raw).rawValue == raw)
        }
        let allocate = STUNMessageType(method: STUNMethod(rawValue: 0x003), messageClass: .errorResponse)
        #expect(allocate.rawValue == 0x0113)
        let highMethod = STUNMessageType(method: STUNMethod(rawValue: 0xFFF), messageClass: .request)
        #expect(highMethod.rawValue == 0x3EEF)
    }

    @Test("every ICE attribute reads back as written")
    func iceAttributesRoundTrip() throws {
        let bytes = try #require(
            Self.write { writer in
                writer.append(.username, text: "abcd:efgh1")
                writer.append(.priority, uint32: 0x6E7F_00FF)
                writer.append(.iceControlling, uint64: 0x0123_4567_89AB_CDEF)
                writer.appendFlag(.useCandidate)
                writer.append(.software, text: "pkrelay")
                writer.appendFingerprint()
            })
        #expect(bytes.count % 4 == 0)
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingRequest)
        #expect(message.transactionID == Self.transactionID)
        #expect(message.fingerprint != nil)
        #expect(message.integrity == nil)
        bytes.withUnsafeBytes { packet in
            #expect(message.username(in: packet).map { Array($0) } == Array("abcd:efgh1".utf8))
            #expect(message.priority(in: packet) == 0x6E7F_00FF)
            #expect(message.iceControlling(in: packet) == 0x0123_4567_89AB_CDEF)
            #expect(message.iceControlled(in: packet) == nil)
            #expect(message.hasUseCandidate(in: packet))
            #expect(message.software(in: packet).map { Array($0) } == Array("pkrelay".utf8))
        }
    }

    @Test(
        "error codes and UNKNOWN-ATTRIBUTES read back",
        arguments: [
            STUNErrorCode.badRequest, .unauthorized, .unknownAttribute, .roleConflict,
        ])
    func errorCodes(code: STUNErrorCode) throws {
        let bytes = try #require(
            Self.write(type: .bindingErrorResponse) { writer in
                writer.appendErrorCode(code)
                writer.appendFingerprint()
            })
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(message.type == .bindingErrorResponse)
        #expect(message.unknownComprehensionRequired.isEmpty, "ERROR-CODE is known")
        #expect(bytes.withUnsafeBytes { message.errorCode(in: $0) } == code)
        let reason = bytes.withUnsafeBytes { packet in
            message.firstAttribute(.errorCode, in: packet)?.value(in: packet).map { Array($0.dropFirst(4)) }
        }
        #expect(reason.map { String(decoding: $0, as: UTF8.self) } == code.reasonPhrase.description)
    }

    @Test("UNKNOWN-ATTRIBUTES lists the types it was given")
    func unknownAttributesList() throws {
        let request = STUNTestMessage.build(attributes: [(0x0003, [1]), (0x7FFF, []), (0x8123, [2, 3])])
        let parsed = try STUNTestMessage.parse(request).get()
        #expect(parsed.unknownComprehensionRequired.count == 2, "0x8123 is comprehension-optional")
        let bytes = try #require(
            Self.write(type: .bindingErrorResponse) { writer in
                writer.appendErrorCode(.unknownAttribute)
                writer.appendUnknownAttributes(parsed.unknownComprehensionRequired)
            })
        let message = try STUNTestMessage.parse(bytes).get()
        let listed = bytes.withUnsafeBytes { packet in
            message.firstAttribute(.unknownAttributes, in: packet)?.value(in: packet).map { Array($0) }
        }
        #expect(listed == [0x00, 0x03, 0x7F, 0xFF])
    }

    @Test("more unknown attributes than fit are still counted")
    func manyUnknownAttributes() throws {
        let types: [UInt16] = [0x0100, 0x0101, 0x0102, 0x0103, 0x0104, 0x0105]
        let bytes = STUNTestMessage.build(attributes: types.map { ($0, [UInt8]()) })
        let unknown = try STUNTestMessage.parse(bytes).get().unknownComprehensionRequired
        #expect(unknown.count == 6)
        #expect(unknown.storedCount == STUNUnknownAttributes.capacity)
        #expect((0..<unknown.storedCount).map { unknown[$0].rawValue } == Array(types.prefix(4)))
    }

    static let addresses: [STUNAddress] = [
        STUNAddress(ipv4: 0, port: 0),
        STUNAddress(ipv4: 0xC0A8_0001, port: 3478),
        STUNAddress(ipv4: 0xFFFF_FFFF, port: 65535),
        STUNAddress(ipv6High: 0x2001_0DB8_0000_0000, low: 1, port: 443),
        STUNAddress(ipv6High: 0, low: 1, port: 9),
        STUNAddress(ipv6High: 0xFFFF_FFFF_FFFF_FFFF, low: 0xFFFF_FFFF_FFFF_FFFF, port: 1),
    ]

    @Test("XOR-MAPPED-ADDRESS round trips for IPv4 and IPv6", arguments: addresses)
    func xorAddressRoundTrip(address: STUNAddress) throws {
        let bytes = try #require(Self.write(type: .bindingSuccessResponse) { writer in writer.appendXORAddress(address) })
        #expect(bytes.count == 24 + address.xorValueLength)
        let message = try STUNTestMessage.parse(bytes).get()
        #expect(bytes.withUnsafeBytes { message.xorMappedAddress(in: $0) } == address)
    }

    @Test("addresses print in their usual text forms")
    func addressDescriptions() {
        #expect(STUNAddress(ipv4: 0x7F00_0001, port: 8080).description == "127.0.0.1:8080")
        #expect(STUNAddress(ipv6High: 0x2001_0DB8_0000_0000, low: 1, port: 443).description == "[2001:db8::1]:443")
        #expect(STUNAddress(ipv6High: 0, low: 0, port: 1).description == "[::]:1")
        #expect(STUNAddress(ipv6High: 0, low: 1, port: 1).description == "[::1]:1")
        #expect(STUNAddress(ipv6High: 0x2001_0DB8_0000_0001, low: 0x0000_0000_0000_0001, port: 2).description == "[2001:db8:0:1::1]:2")
        #expect(STUNAddress(ipv6High: 0x2001_0000_0001_0001, low: 0x0001_0001_0001_0001, port: 3).description == "[2001:0:1:1:1:1:1:1]:3")
        #expect(
            STUNAddress(ipv6High: 0x2001_0000_0000_0001, low: 0x0000_0000_0001_0001, port: 4).description == "[2001::1:0:0:1:1]:4",
            "the first of two equal zero runs is the one shortened")
    }

    @Test("XOR addresses with a wrong family or length are refused")
    func badXORAddresses() {
        let transactionID = Self.transactionID
        for value in [[0, 3, 0, 0, 1, 2, 3, 4], [0, 1, 0, 0, 1, 2, 3], [0, 2, 0, 0, 1, 2, 3, 4], [0, 1]] as [[UInt8]] {
            #expect(value.withUnsafeBytes { STUNAddress(xorValue: $0, transactionID: transactionID) } == nil, "\(value)")
        }
    }

    @Test("a buffer too short fails the whole message, and stays failed")
    func tooShort() {
        #expect(Self.write(capacity: 19) { _ in } == nil)
        #expect(Self.write(capacity: 20) { _ in } == [0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42] + Self.transactionID.bytes)
        #expect(Self.write(capacity: 27) { writer in writer.append(.priority, uint32: 1) } == nil)
        #expect(Self.write(capacity: 28) { writer in writer.append(.priority, uint32: 1) }?.count == 28)
        #expect(
            Self.write(capacity: 28) { writer in
                writer.append(.priority, uint32: 1)
                writer.appendFlag(.useCandidate)
                writer.append(.priority, uint32: 2)
            } == nil, "later appends do not clear the failure")
    }

    @Test("nothing but FINGERPRINT may follow MESSAGE-INTEGRITY, and nothing follows FINGERPRINT")
    func orderRules() {
        #expect(
            Self.write { writer in
                _ = writer.appendIntegrityPlaceholder()
                writer.append(.priority, uint32: 1)
            } == nil)
        #expect(
            Self.write { writer in
                writer.appendFingerprint()
                writer.append(.priority, uint32: 1)
            } == nil)
        #expect(
            Self.write { writer in
                writer.append(.priority, uint32: 1)
                _ = writer.appendIntegrityPlaceholder()
                writer.appendFingerprint()
            }?.count == 20 + 8 + 24 + 8)
    }

    @Test("the integrity slot covers everything before MESSAGE-INTEGRITY, and the length field ends at it")
    func integritySlot() {
        var buffer = [UInt8](repeating: 0, count: 128)
        let (slot, lengthAtIntegrity, lengthAtEnd, finished) = buffer.withUnsafeMutableBytes { raw in
            var writer = STUNMessageWriter(into: raw, type: .bindingRequest, transactionID: Self.transactionID)
            writer.append(.username, text: "a:b")
            let slot = writer.appendIntegrityPlaceholder()
            let lengthAtIntegrity = raw[3]
            writer.appendFingerprint()
            return (slot, lengthAtIntegrity, raw[3], writer.finish())
        }
        #expect(slot == STUNIntegritySlot(signedLength: 28, codeOffset: 32))
        #expect(lengthAtIntegrity == 32, "the length counts USERNAME and MESSAGE-INTEGRITY")
        #expect(lengthAtEnd == 40, "then FINGERPRINT too")
        #expect(finished == 60)
    }
}
