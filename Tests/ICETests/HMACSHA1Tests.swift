import SecureTransport
import Testing

@Suite("HMAC-SHA-1")
struct HMACSHA1Tests {
    /// RFC 2202 test cases 1, 2 and 6 (the last with a key longer than a block).
    static let vectors: [(key: [UInt8], message: [UInt8], code: String)] = [
        ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        ([UInt8](repeating: 0xAA, count: 80), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
    ]

    @Test("RFC 2202 test vectors, through both entry points", arguments: vectors)
    func rfc2202(key: [UInt8], message: [UInt8], code: String) {
        let computed = HMACSHA1.authenticationCode(key: key, message: message)
        #expect(ICEVectors.bytes(hex: code) == computed)
        let valid = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                computed.withUnsafeBytes { HMACSHA1.isValid($0, message: message, key: key) }
            }
        }
        #expect(valid)
    }

    @Test("a wrong or short code is not valid")
    func invalidCodes() {
        let key: [UInt8] = [1, 2, 3]
        let message: [UInt8] = [4, 5, 6]
        var code = HMACSHA1.authenticationCode(key: key, message: message)
        code[19] ^= 0x01
        for candidate in [code, Array(code.prefix(19)), []] {
            let valid = key.withUnsafeBytes { key in
                message.withUnsafeBytes { message in
                    candidate.withUnsafeBytes { HMACSHA1.isValid($0, message: message, key: key) }
                }
            }
            #expect(!valid)
        }
    }
}
