import SecureTransport
import Testing

@Suite("HMAC-SHA-256 and constant-time comparison")
struct HMACSHA256Tests {
    /// RFC 4231 test cases 1 and 2.
    static let vectors: [(key: [UInt8], message: [UInt8], code: String)] = [
        (
            [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
    ]

    @Test("RFC 4231 test vectors", arguments: vectors)
    func rfc4231(key: [UInt8], message: [UInt8], code: String) {
        #expect(HMACSHA256.authenticationCode(key: key, message: message).hex == code)
    }

    @Test("Empty key and empty message still give a 32-byte code that depends on the key")
    func emptyInputs() {
        let empty = HMACSHA256.authenticationCode(key: [], message: [])
        #expect(empty.count == 32)
        #expect(empty != HMACSHA256.authenticationCode(key: [1], message: []))
    }

    static let comparisons: [(a: [UInt8], b: [UInt8], equal: Bool)] = [
        ([], [], true),
        ([1, 2, 3], [1, 2, 3], true),
        ([1, 2, 3], [1, 2, 4], false),
        ([0, 2, 3], [1, 2, 3], false),
        ([1, 2, 3], [1, 2], false),
        ([], [0], false),
        ([UInt8](repeating: 7, count: 32), [UInt8](repeating: 7, count: 32), true),
    ]

    @Test("Constant-time equality", arguments: comparisons)
    func constantTimeEquals(a: [UInt8], b: [UInt8], equal: Bool) {
        #expect(HMACSHA256.constantTimeEquals(a, b) == equal)
        #expect(HMACSHA256.constantTimeEquals(b, a) == equal)
    }
}
