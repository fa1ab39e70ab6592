import SecureTransport
import Testing

/// Protecting a packet whose head and tail lie apart gives the bytes and status of protecting
/// the joined packet: a session with RTP on OpenSSL reads the tail where it lies.
@Suite("SRTP: sealing a packet in two parts")
struct SRTPSplitSealTests {
    static let profiles: [SRTPProfile] = [.aeadAES128GCM, .aesCM128HMACSHA1_80]

    static func keys(_ profile: SRTPProfile) -> [UInt8] {
        (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    }

    /// An RTP packet with `csrcs` CSRCs, an extension when asked, and `payload` bytes.
    static func packet(sequenceNumber: UInt16, csrcs: Int, extensionWords: Int?, payload: Int) -> [UInt8] {
        var bytes: [UInt8] = [
            0x80 | UInt8(csrcs), 96, UInt8(sequenceNumber >> 8), UInt8(truncatingIfNeeded: sequenceNumber), 0, 0, 0x10, 0, 0xCA, 0xFE, 0xBA, 0xBE,
        ]
        for index in 0..<csrcs { bytes += [0, 0, 0, UInt8(index + 1)] }
        if let extensionWords {
            bytes[0] |= 0x10
            bytes += [0xBE, 0xDE, 0, UInt8(extensionWords)] + [UInt8](repeating: 0x22, count: 4 * extensionWords)
        }
        return bytes + (0..<payload).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 3) }
    }

    static func protectJoined(_ session: SRTPSession, _ packet: [UInt8]) -> (SRTPStatus, [UInt8]) {
        var buffer = packet + [UInt8](repeating: 0, count: 32)
        var length = packet.count
        let status = buffer.withUnsafeMutableBytes { session.protectRTP($0.baseAddress!, length: &length, capacity: $0.count) }
        return (status, Array(buffer.prefix(length)))
    }

    static func protectSplit(_ session: SRTPSession, _ packet: [UInt8], headLength: Int, capacity: Int? = nil) -> (SRTPStatus, [UInt8]) {
        var slot = Array(packet.prefix(headLength)) + [UInt8](repeating: 0xEE, count: packet.count - headLength + 32)
        let tail = Array(packet.dropFirst(headLength)) + [0]
        var length = -1
        let status = slot.withUnsafeMutableBytes { out in
            tail.withUnsafeBytes { tail in
                session.protectRTP(
                    out.baseAddress!, headLength: headLength, tail: tail.baseAddress!, tailLength: packet.count - headLength, length: &length,
                    capacity: capacity ?? out.count)
            }
        }
        return (status, status == .ok ? Array(slot.prefix(length)) : [])
    }

    @Test("the same bytes as sealing the joined packet, for every header shape and split point", arguments: profiles)
    func sameBytes(profile: SRTPProfile) throws {
        let joined = try SRTPSession(profile: profile, keyingMaterial: Self.keys(profile), direction: .sender)
        let split = try SRTPSession(profile: profile, keyingMaterial: Self.keys(profile), direction: .sender)
        let receiver = try SRTPSession(profile: profile, keyingMaterial: Self.keys(profile), direction: .receiver)
        #expect(split.sealsTailInPlace)
        var sequenceNumber: UInt16 = 65_530
        for (csrcs, extensionWords) in [(0, nil), (2, nil), (0, 1), (3, 4)] as [(Int, Int?)] {
            for payload in [0, 1, 15, 16, 17, 300, 1200] {
                let packet = Self.packet(sequenceNumber: sequenceNumber, csrcs: csrcs, extensionWords: extensionWords, payload: payload)
                let headerLength = packet.count - payload
                let heads = [headerLength, headerLength + min(payload, 1), headerLength + min(payload, 16), packet.count]
                for (order, headLength) in heads.enumerated() {
                    let expected = Self.protectJoined(joined, packet)
                    var got = Self.protectSplit(split, packet, headLength: headLength)
                    #expect(expected.0 == .ok)
                    #expect(
                        got.0 == .ok && got.1 == expected.1,
                        "\(profile) csrcs \(csrcs) extension \(String(describing: extensionWords)) payload \(payload) head \(headLength)")
                    // Across the wrap the sender counts the rollover: a receiver opens each packet once.
                    if order == 0 {
                        var length = got.1.count
                        #expect(got.1.withUnsafeMutableBytes { receiver.unprotectRTP($0.baseAddress!, length: &length) } == .ok)
                        #expect(Array(got.1.prefix(length)) == packet)
                    }
                }
                sequenceNumber &+= 1
            }
        }
    }

    @Test("refused without writing: a head shorter than the header, short capacity, a tail within the output", arguments: profiles)
    func refusals(profile: SRTPProfile) throws {
        let session = try SRTPSession(profile: profile, keyingMaterial: Self.keys(profile), direction: .sender)
        let tag = profile.rtpTrailerLength
        let packet = Self.packet(sequenceNumber: 1, csrcs: 1, extensionWords: 2, payload: 500)
        #expect(Self.protectSplit(session, packet, headLength: 12).0 == .malformed, "the extension is in the tail")
        #expect(Self.protectSplit(session, packet, headLength: 11).0 == .malformed)
        #expect(Self.protectSplit(session, packet, headLength: 40, capacity: packet.count + tag - 1).0 == .malformed)
        #expect(Self.protectSplit(session, packet, headLength: 40, capacity: packet.count + tag).0 == .ok)

        // The tail where its own ciphertext would overwrite it, and the tail inside the head's
        // payload, which is encrypted before the tail is read.
        for (tailOffset, tailLength) in [(60, packet.count - 40), (16, 20)] {
            var buffer = packet + [UInt8](repeating: 0, count: 600)
            let original = buffer
            var length = -1
            let status = buffer.withUnsafeMutableBytes { out in
                session.protectRTP(
                    out.baseAddress!, headLength: 40, tail: UnsafeRawPointer(out.baseAddress! + tailOffset), tailLength: tailLength,
                    length: &length, capacity: out.count)
            }
            #expect(status == .malformed && length == -1, "tail at \(tailOffset)")
            let untouched = buffer == original
            #expect(untouched, "tail at \(tailOffset): nothing written")
        }
    }
}
