import COpenSSLShims
import SecureTransport

/// An independent, deliberately plain implementation of SRTP's key derivation and packet
/// transforms, built only on OpenSSL primitives. It exists to check libsrtp's output
/// byte for byte; it supports no MKI, key derivation rate zero, and takes the rollover
/// counter or SRTCP index from the caller instead of tracking state.
enum SRTPReference {
    /// Key derivation labels (RFC 3711 section 4.3.2).
    enum Label: UInt8 {
        case rtpEncryption = 0, rtpAuthentication, rtpSalt
        case rtcpEncryption, rtcpAuthentication, rtcpSalt
    }

    // MARK: Primitives

    /// The AES-128 counter-mode keystream starting at `counter`.
    static func aesCMKeystream(key: [UInt8], counter: [UInt8], length: Int) -> [UInt8] {
        precondition(key.count == 16 && counter.count == 16)
        let zeros = [UInt8](repeating: 0, count: length)
        var output = [UInt8](repeating: 0, count: length)
        let ok = pkr_aes128_ctr_apply(key, counter, zeros, &output, length)
        precondition(ok == 1, "AES-CTR failed")
        return output
    }

    /// HMAC-SHA1 of `message` under `key`.
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: 20)
        let ok = pkr_hmac_sha1(key, key.count, message, message.count, &code)
        precondition(ok == 1, "HMAC-SHA1 failed")
        return code
    }

    /// AES-128-GCM: ciphertext followed by the 16-byte tag.
    static func gcmSeal(key: [UInt8], iv: [UInt8], aad: [UInt8], plaintext: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && iv.count == 12)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        let ok = pkr_aes128_gcm_seal(key, iv, aad, aad.count, plaintext, plaintext.count, &ciphertext, &tag)
        precondition(ok == 1, "AES-GCM failed")
        return ciphertext + tag
    }

    // MARK: Key derivation (RFC 3711 section 4.3, AES-CM PRF; RFC 7714 section 11)

    /// Derives `length` bytes for `label` with packet index 0 (key derivation rate zero).
    ///
    /// x = (label || r) XOR master salt, with the 56-bit label-and-index aligned to the
    /// right of the 112-bit salt; the PRF output is the AES-CM keystream from x * 2^16.
    /// A 96-bit GCM master salt is extended with zero bits on the right to 112 bits.
    static func derive(masterKey: [UInt8], masterSalt: [UInt8], label: Label, length: Int) -> [UInt8] {
        aesCMKeystream(key: masterKey, counter: derivationCounter(masterSalt: masterSalt, label: label), length: length)
    }

    /// The PRF's starting counter block x * 2^16 for `label` and packet index 0.
    static func derivationCounter(masterSalt: [UInt8], label: Label) -> [UInt8] {
        precondition(masterSalt.count <= 14)
        var x = masterSalt + [UInt8](repeating: 0, count: 14 - masterSalt.count)
        x[7] ^= label.rawValue  // r = index DIV kdr = 0, so bytes 8...13 keep the salt
        return x + [0, 0]
    }

    /// The session keys for RTP or RTCP under `profile`.
    static func sessionKeys(
        profile: SRTPProfile, masterKey: [UInt8], masterSalt: [UInt8], forRTCP: Bool
    ) -> SRTPReferenceKeys {
        let labels: (Label, Label, Label) =
            forRTCP
            ? (.rtcpEncryption, .rtcpAuthentication, .rtcpSalt)
            : (.rtpEncryption, .rtpAuthentication, .rtpSalt)
        let authenticationLength = profile == .aesCM128HMACSHA1_80 ? 20 : 0
        return SRTPReferenceKeys(
            encryptionKey: derive(masterKey: masterKey, masterSalt: masterSalt, label: labels.0, length: 16),
            authenticationKey: authenticationLength == 0
                ? [] : derive(masterKey: masterKey, masterSalt: masterSalt, label: labels.1, length: authenticationLength),
            salt: derive(masterKey: masterKey, masterSalt: masterSalt, label: labels.2, length: profile.masterSaltLength))
    }

    // MARK: Packet fields

    /// Length of an RTP header including CSRCs and the header extension.
    static func rtpHeaderLength(_ packet: [UInt8]) -> Int {
        var length = 12 + 4 * Int(packet[0] & 0x0F)
        if packet[0] & 0x10 != 0 {
            let words = Int(packet[length + 2]) << 8 | Int(packet[length + 3])
            length += 4 + 4 * words
        }
        return length
    }

    /// Big-endian 32-bit word at `offset`.
    static func word(_ packet: [UInt8], at offset: Int) -> UInt32 {
        packet[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Big-endian bytes of the low `count` bytes of `value`.
    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (count - 1 - $0))) }
    }

    /// Element-wise XOR of equally long byte strings.
    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        precondition(a.count == b.count)
        return zip(a, b).map { $0 ^ $1 }
    }

    // MARK: AES-CM with HMAC-SHA1-80 (RFC 3711)

    /// The AES-CM IV: (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16).
    static func aesCMCounter(salt: [UInt8], ssrc: UInt32, index: UInt64) -> [UInt8] {
        let ssrcAndIndex = [0, 0, 0, 0] + bigEndian(UInt64(ssrc), count: 4) + bigEndian(index, count: 6)
        return xor(salt, ssrcAndIndex) + [0, 0]
    }

    /// Protects an RTP packet with AES-CM and an 80-bit HMAC-SHA1 tag.
    static func protectRTPWithAESCM(_ packet: [UInt8], keys: SRTPReferenceKeys, rolloverCounter: UInt32) -> [UInt8] {
        let headerLength = rtpHeaderLength(packet)
        let sequenceNumber = UInt64(packet[2]) << 8 | UInt64(packet[3])
        let index = UInt64(rolloverCounter) << 16 | sequenceNumber
        let counter = aesCMCounter(salt: keys.salt, ssrc: word(packet, at: 8), index: index)
        let payload = Array(packet[headerLength...])
        let encrypted =
            Array(packet[..<headerLength])
            + xor(payload, aesCMKeystream(key: keys.encryptionKey, counter: counter, length: payload.count))
        let tag = hmacSHA1(
            key: keys.authenticationKey,
            message: encrypted + bigEndian(UInt64(rolloverCounter), count: 4))
        return encrypted + tag.prefix(10)
    }

    /// Protects an RTCP packet with AES-CM and an 80-bit HMAC-SHA1 tag, E flag set.
    static func protectRTCPWithAESCM(_ packet: [UInt8], keys: SRTPReferenceKeys, index: UInt32) -> [UInt8] {
        let counter = aesCMCounter(salt: keys.salt, ssrc: word(packet, at: 4), index: UInt64(index))
        let body = Array(packet[8...])
        let encrypted =
            Array(packet[..<8])
            + xor(body, aesCMKeystream(key: keys.encryptionKey, counter: counter, length: body.count))
            + bigEndian(UInt64(0x8000_0000 | index), count: 4)
        let tag = hmacSHA1(key: keys.authenticationKey, message: encrypted)
        return encrypted + tag.prefix(10)
    }

    // MARK: AEAD_AES_128_GCM (RFC 7714)

    /// The RTP IV: (0x0000 || SSRC || ROC || SEQ) XOR salt (RFC 7714 section 8.1).
    static func gcmRTPIV(salt: [UInt8], ssrc: UInt32, rolloverCounter: UInt32, sequenceNumber: UInt16) -> [UInt8] {
        xor(
            salt,
            [0, 0] + bigEndian(UInt64(ssrc), count: 4)
                + bigEndian(UInt64(rolloverCounter), count: 4) + bigEndian(UInt64(sequenceNumber), count: 2))
    }

    /// The RTCP IV: (0x0000 || SSRC || 0x0000 || 0 || SRTCP index) XOR salt (section 9.1).
    static func gcmRTCPIV(salt: [UInt8], ssrc: UInt32, index: UInt32) -> [UInt8] {
        xor(salt, [0, 0] + bigEndian(UInt64(ssrc), count: 4) + [0, 0] + bigEndian(UInt64(index), count: 4))
    }

    /// Protects an RTP packet with AES-128-GCM; the whole header is associated data.
    static func protectRTPWithGCM(_ packet: [UInt8], keys: SRTPReferenceKeys, rolloverCounter: UInt32) -> [UInt8] {
        let headerLength = rtpHeaderLength(packet)
        let header = Array(packet[..<headerLength])
        let iv = gcmRTPIV(
            salt: keys.salt, ssrc: word(packet, at: 8), rolloverCounter: rolloverCounter,
            sequenceNumber: UInt16(packet[2]) << 8 | UInt16(packet[3]))
        return header + gcmSeal(key: keys.encryptionKey, iv: iv, aad: header, plaintext: Array(packet[headerLength...]))
    }

    /// Protects an RTCP packet with AES-128-GCM, E flag set: the first 8 bytes and the
    /// E-and-index word are associated data, and that word follows the tag.
    static func protectRTCPWithGCM(_ packet: [UInt8], keys: SRTPReferenceKeys, index: UInt32) -> [UInt8] {
        let header = Array(packet[..<8])
        let trailer = bigEndian(UInt64(0x8000_0000 | index), count: 4)
        let iv = gcmRTCPIV(salt: keys.salt, ssrc: word(packet, at: 4), index: index)
        return header
            + gcmSeal(key: keys.encryptionKey, iv: iv, aad: header + trailer, plaintext: Array(packet[8...]))
            + trailer
    }
}
