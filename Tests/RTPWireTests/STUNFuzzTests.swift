import RTPWire
import STUNTestVectors
import Testing

@Suite("STUN: seeded fuzzing")
struct STUNFuzzTests {
    /// What a successful parse promises about `bytes`, checked independently of the parser.
    static func checkInvariants(of message: STUNMessage, in bytes: [UInt8]) {
        #expect(message.length == bytes.count)
        #expect(bytes.count % 4 == 0)
        #expect(bytes[0] & 0xC0 == 0)
        #expect(Array(bytes[4..<8]) == [0x21, 0x12, 0xA4, 0x42])
        bytes.withUnsafeBytes { packet in
            var attributes = STUNAttributeIterator(packet)
            var end = 20
            var seenIntegrity = false
            var seenFingerprint = false
            while let attribute = attributes.next() {
                #expect(attribute.valueOffset == end + 4)
                #expect(!seenFingerprint, "nothing after FINGERPRINT")
                if seenIntegrity {
                    #expect(attribute.type == .fingerprint || attribute.type == .messageIntegritySHA256)
                }
                if attribute.type == .messageIntegrity { seenIntegrity = true }
                if attribute.type == .fingerprint { seenFingerprint = true }
                end = attribute.valueOffset + (attribute.valueLength + 3) / 4 * 4
            }
            #expect(end == bytes.count, "attributes fill the message exactly")
            #expect(seenFingerprint == (message.fingerprint != nil))
            if let fingerprint = message.fingerprint {
                let crc = STUNFingerprint.crc32(UnsafeRawBufferPointer(rebasing: packet[0..<fingerprint.headerOffset]))
                #expect(crc ^ 0x5354_554E == packet.load(fromByteOffset: fingerprint.valueOffset, as: UInt32.self).bigEndian)
            }
            if bytes[0] <= 3 {
                #expect(PacketDemultiplexer.classify(packet) == .stun)
            }
            // The accessors stay inside the packet whatever the attributes hold.
            _ = message.username(in: packet)
            _ = message.xorMappedAddress(in: packet)
            _ = message.errorCode(in: packet)
            _ = message.priority(in: packet)
        }
    }

    @Test("random buffers, some with a plausible header, never crash and parse only when well formed")
    func randomBuffers() {
        var random = SplitMix(seed: 0x5354_554E)
        var parsed = 0
        for _ in 0..<3000 {
            let count = Int(random.next() % 160)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if count >= 20, random.next() % 4 != 0 {
                // A real header over random attributes, so the attribute walk gets exercised.
                let bodyLength = (count - 20) & ~3
                bytes = Array(bytes.prefix(20 + bodyLength))
                bytes[0] &= 0x01
                bytes[2] = UInt8(bodyLength >> 8)
                bytes[3] = UInt8(bodyLength & 0xFF)
                bytes[4...7] = [0x21, 0x12, 0xA4, 0x42]
                if random.next() % 2 == 0, bodyLength >= 4 {
                    // A well-formed first attribute header more often than chance gives.
                    let valueLength = Int(random.next() % UInt64(bodyLength - 3))
                    bytes[20] = UInt8(truncatingIfNeeded: random.next() % 3 == 0 ? 0x80 : 0x00)
                    bytes[22] = UInt8(valueLength >> 8)
                    bytes[23] = UInt8(valueLength & 0xFF)
                }
            }
            switch STUNTestMessage.parse(bytes) {
            case .success(let message):
                parsed += 1
                Self.checkInvariants(of: message, in: bytes)
            case .failure(let error):
                if bytes.count < 20 { #expect(error == .truncatedHeader) }
            }
        }
        #expect(parsed > 0, "the generator produced some valid messages too")
    }

    @Test("every single-byte change to a vector is caught, with a fitting error")
    func mutatedVectors() {
        var random = SplitMix(seed: 5769)
        let vectors = [STUNTestVectors.sampleRequest, STUNTestVectors.sampleIPv4Response, STUNTestVectors.sampleIPv6Response]
        for _ in 0..<3000 {
            let original = vectors[Int(random.next() % 3)]
            var bytes = original
            let position = Int(random.next() % UInt64(bytes.count))
            bytes[position] ^= UInt8(truncatingIfNeeded: random.next() % 255 + 1)

            guard case .failure(let error) = STUNTestMessage.parse(bytes) else {
                Issue.record("a change at byte \(position) went unnoticed")
                continue
            }
            let valueBytes = Self.valueRanges(of: original)
            switch position {
            case 0..<2:
                #expect(error == .notSTUN || error == .fingerprintMismatch, "type byte \(position): \(error)")
            case 2..<4:
                #expect(error == .lengthNotMultipleOfFour || error == .lengthMismatch, "length byte \(position): \(error)")
            case 4..<8:
                #expect(error == .badMagicCookie)
            case 8..<20:
                #expect(error == .fingerprintMismatch)
            default:
                if valueBytes.contains(where: { $0.contains(position) }) {
                    #expect(error == .fingerprintMismatch, "value byte \(position): \(error)")
                } else {
                    #expect(!error.isHeaderError, "attribute header byte \(position): \(error)")
                }
            }
        }
    }

    @Test("truncating or extending a vector is caught")
    func resizedVectors() {
        for vector in [STUNTestVectors.sampleRequest, STUNTestVectors.sampleIPv4Response, STUNTestVectors.sampleIPv6Response] {
            for count in 0..<vector.count {
                #expect(throws: STUNParseError.self) { try STUNTestMessage.parse(Array(vector.prefix(count))).get() }
            }
            for extra in 1...8 {
                #expect(throws: STUNParseError.lengthMismatch) {
                    try STUNTestMessage.parse(vector + [UInt8](repeating: 0, count: extra)).get()
                }
            }
        }
    }

    /// The byte ranges of the attribute values (padding included) of a well-formed message.
    static func valueRanges(of bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBytes { packet in
            var ranges: [Range<Int>] = []
            var attributes = STUNAttributeIterator(packet)
            while let attribute = attributes.next() {
                ranges.append(attribute.valueOffset..<(attribute.valueOffset + (attribute.valueLength + 3) / 4 * 4))
            }
            return ranges
        }
    }
}
