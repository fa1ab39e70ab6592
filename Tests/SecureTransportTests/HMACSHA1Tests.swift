import SecureTransport
import Testing

@Suite("HMAC-SHA-1")
struct HMACSHA1Tests {
    /// RFC 2202 section 3, and keys on both sides of the 64-byte block (a longer key is hashed
    /// first), which the STUN vectors never reach.
    static let cases: [(key: [UInt8], message: [UInt8], code: String)] = [
        ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        ([UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50), "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        (Array(1...25), [UInt8](repeating: 0xCD, count: 50), "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        (
            [UInt8](repeating: 0xAA, count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "aa4ae5e15272d00e95705637ce8a3b55ed402112"
        ),
        (
            [UInt8](repeating: 0xAA, count: 80), Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
            "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
        ),
        (Array(0..<64), [], "60bf8c95c85cfa61279a2b9b079aa19d7fa5f31a"),
        (Array(0..<65), Array(0..<200), "328d8b7180ca18e9df55f6ddea98ca95559cddea"),
        ([], Array("abc".utf8), "9b4a918f398d74d3e367970aba3cbe54e4d2b5d9"),
    ]

    @Test("RFC 2202 vectors and block-size keys", arguments: cases)
    func rfc2202(key: [UInt8], message: [UInt8], code: String) {
        #expect(HMACSHA1.authenticationCode(key: key, message: message).hex == code)
    }

    @Test("isValid accepts the code and nothing else: a flipped bit, a short or a long code")
    func validation() {
        let key = Array("a 22-character pwd!!!!".utf8)
        let message = [UInt8](repeating: 0x42, count: 100)
        let code = HMACSHA1.authenticationCode(key: key, message: message)
        func valid(_ candidate: [UInt8]) -> Bool {
            candidate.withUnsafeBytes { candidate in
                message.withUnsafeBytes { message in
                    key.withUnsafeBytes { HMACSHA1.isValid(candidate, message: message, key: $0) }
                }
            }
        }
        #expect(valid(code))
        for position in [0, 10, 19] {
            var forged = code
            forged[position] ^= 0x01
            #expect(!valid(forged), "bit flipped at \(position)")
        }
        #expect(!valid(Array(code.prefix(19))))
        #expect(!valid(code + [0]))
    }
}
