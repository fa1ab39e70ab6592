import COpenSSLShims
import Testing

/// AES-GCM contexts call the cipher implementation's own functions rather than EVP's wrappers
/// (srtp_openssl.c, `pkr_gcm_functions`). The other tests hold those contexts to libsrtp; these
/// hold the EVP contexts a process falls back to when the functions cannot be found to the same
/// bytes and the same refusals, so that neither path can drift from the other.
@Suite("AES-GCM on its implementation's functions against EVP")
struct SRTPGCMDispatchTests {
    static let key: [UInt8] = (0..<16).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) }
    static let salt: [UInt8] = (0..<12).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 1) }

    /// A context owned by the test: direct (`onEVP` false) or through EVP, to seal or to open,
    /// for SRTP or SRTCP.
    final class Context {
        let pointer: OpaquePointer

        init(onEVP: Bool, sealing: Bool, rtcp: Bool = false) {
            let code = PKR_SRTP_RTP_AEAD_AES_128_GCM
            let made = SRTPGCMDispatchTests.key.withUnsafeBufferPointer { key in
                SRTPGCMDispatchTests.salt.withUnsafeBufferPointer { salt in
                    if onEVP { return pkr_srtp_create_on_evp(code, key.baseAddress, salt.baseAddress, sealing ? 1 : 0, rtcp ? 1 : 0) }
                    return rtcp
                        ? pkr_srtcp_create(code, key.baseAddress, salt.baseAddress, sealing ? 1 : 0)
                        : pkr_srtp_rtp_create(code, key.baseAddress, salt.baseAddress, sealing ? 1 : 0)
                }
            }
            pointer = made!
        }

        deinit { pkr_srtp_rtp_destroy(pointer) }

        var isDirect: Bool { pkr_srtp_gcm_is_direct(pointer) == 1 }
    }

    /// An RTP packet with `csrcs` CSRCs, a header extension when `extended`, and `payload` bytes.
    static func packet(sequenceNumber: UInt16, csrcs: Int, extended: Bool, payload: Int, seed: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | UInt8(csrcs), 96, UInt8(sequenceNumber >> 8), UInt8(truncatingIfNeeded: sequenceNumber), 0, 1, 2, 3, 0xCA, 0xFE, 0, 9]
        for index in 0..<csrcs { bytes += [0, 0, 1, UInt8(index)] }
        if extended {
            bytes[0] |= 0x10
            bytes += [0xBE, 0xDE, 0, 1, 0x10, 0x7F, 0, 0]
        }
        return bytes + (0..<payload).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ seed) }
    }

    /// `packet` sealed by `context` with its first `headLength` bytes in the output buffer and
    /// the rest read from a buffer of its own; nil when refused.
    static func seal(_ context: Context, _ packet: [UInt8], headLength: Int, rolloverCounter: UInt32) -> [UInt8]? {
        var output = Array(packet.prefix(headLength)) + [UInt8](repeating: 0, count: packet.count - headLength + 16)
        let tail = Array(packet.dropFirst(headLength)) + [0]
        let sealed = output.withUnsafeMutableBufferPointer { output in
            tail.withUnsafeBufferPointer { tail in
                pkr_srtp_rtp_seal_split(
                    context.pointer, output.baseAddress, headLength, tail.baseAddress, packet.count - headLength, output.count, rolloverCounter)
            }
        }
        return sealed < 0 ? nil : Array(output.prefix(sealed))
    }

    /// What `context` makes of `packet` when opening it: the plain packet, or the refusal.
    static func open(_ context: Context, _ packet: [UInt8], rolloverCounter: UInt32) -> Result<[UInt8], OpenRefusal> {
        var buffer = packet
        let opened = buffer.withUnsafeMutableBufferPointer { pkr_srtp_rtp_open(context.pointer, $0.baseAddress, $0.count, rolloverCounter) }
        return opened < 0 ? .failure(OpenRefusal(code: opened)) : .success(Array(buffer.prefix(opened)))
    }

    struct OpenRefusal: Error, Equatable {
        let code: Int
    }

    @Test("contexts made the ordinary way call the implementation directly; the EVP ones do not")
    func contextsTakeTheDirectPath() {
        #expect(Context(onEVP: false, sealing: true).isDirect)
        #expect(Context(onEVP: false, sealing: false).isDirect)
        #expect(Context(onEVP: false, sealing: true, rtcp: true).isDirect)
        #expect(!Context(onEVP: true, sealing: true).isDirect)
        #expect(!Context(onEVP: true, sealing: false, rtcp: true).isDirect)
    }

    @Test("sealing gives EVP's bytes for every header shape, split point and length; opening gives EVP's answer, altered or not")
    func sealAndOpenMatchEVP() {
        let direct = Context(onEVP: false, sealing: true)
        let evp = Context(onEVP: true, sealing: true)
        let directOpener = Context(onEVP: false, sealing: false)
        let evpOpener = Context(onEVP: true, sealing: false)
        var compared = 0
        for round in 0..<400 {
            let payload = [0, 1, 15, 16, 17, 31, 32, 95, 96, 97, 288, 300, 1172, 1184][round % 14] + (round / 14) % 3
            let packet = Self.packet(
                sequenceNumber: UInt16(truncatingIfNeeded: 65_400 &+ round * 3), csrcs: round % 3, extended: round % 2 == 1,
                payload: payload, seed: round)
            let header = 12 + 4 * (round % 3) + (round % 2 == 1 ? 8 : 0)
            let rolloverCounter = UInt32(round / 50)
            // The head is the header and some of the payload, anywhere from none to all of it.
            let headLength = header + (payload == 0 ? 0 : (round * 7) % (payload + 1))
            let sealed = Self.seal(direct, packet, headLength: headLength, rolloverCounter: rolloverCounter)
            let reference = Self.seal(evp, packet, headLength: headLength, rolloverCounter: rolloverCounter)
            #expect(sealed != nil && sealed == reference, "round \(round)")
            guard let sealed else { continue }
            #expect(Self.open(directOpener, sealed, rolloverCounter: rolloverCounter) == .success(packet))
            #expect(Self.open(evpOpener, sealed, rolloverCounter: rolloverCounter) == .success(packet))
            var altered = sealed
            altered[(round * 13) % altered.count] ^= 0x20
            #expect(Self.open(directOpener, altered, rolloverCounter: rolloverCounter) == Self.open(evpOpener, altered, rolloverCounter: rolloverCounter))
            #expect(Self.open(directOpener, altered, rolloverCounter: rolloverCounter) != .success(packet))
            // Another rollover counter is another IV: refused on both.
            #expect(Self.open(directOpener, sealed, rolloverCounter: rolloverCounter + 1) == .failure(OpenRefusal(code: -2)))
            compared += 1
        }
        #expect(compared == 400)
    }

    @Test("SRTCP: sealing gives EVP's bytes, and opening accepts and refuses as EVP does")
    func rtcpMatchesEVP() {
        let direct = Context(onEVP: false, sealing: true, rtcp: true)
        let evp = Context(onEVP: true, sealing: true, rtcp: true)
        let directOpener = Context(onEVP: false, sealing: false, rtcp: true)
        let evpOpener = Context(onEVP: true, sealing: false, rtcp: true)
        for round in 0..<120 {
            let plain: [UInt8] =
                [0x81, 201, 0, UInt8(1 + round % 7), 0, 0, 0x12, 0x34] + (0..<(4 * (round % 7))).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            let sealed = [direct, evp].map { context -> [UInt8] in
                var buffer = plain + [UInt8](repeating: 0, count: 20)
                let length = buffer.withUnsafeMutableBufferPointer {
                    pkr_srtcp_seal(context.pointer, $0.baseAddress, plain.count, $0.count, UInt32(round + 1))
                }
                return length < 0 ? [] : Array(buffer.prefix(length))
            }
            #expect(!sealed[0].isEmpty && sealed[0] == sealed[1], "round \(round)")
            for opener in [directOpener, evpOpener] {
                var buffer = sealed[0]
                let opened = buffer.withUnsafeMutableBufferPointer { pkr_srtcp_open(opener.pointer, $0.baseAddress, $0.count) }
                #expect(opened == plain.count && Array(buffer.prefix(plain.count)) == plain)
                // A changed tag byte: refused as not authentic.
                var altered = sealed[0]
                altered[altered.count - 6] ^= 1
                #expect(altered.withUnsafeMutableBufferPointer { pkr_srtcp_open(opener.pointer, $0.baseAddress, $0.count) } == -2)
            }
        }
    }
}
