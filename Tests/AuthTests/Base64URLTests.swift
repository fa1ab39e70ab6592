import Testing

@testable import Auth

/// Base64url without padding, RFC 4648 section 5, both ways.
@Suite("Base64url")
struct Base64URLTests {
    /// RFC 4648 section 10's vectors without padding, and bytes that use both url-safe letters.
    static let vectors: [(bytes: [UInt8], text: String)] = [
        ([], ""),
        (Array("f".utf8), "Zg"),
        (Array("fo".utf8), "Zm8"),
        (Array("foo".utf8), "Zm9v"),
        (Array("foob".utf8), "Zm9vYg"),
        (Array("fooba".utf8), "Zm9vYmE"),
        (Array("foobar".utf8), "Zm9vYmFy"),
        ([0xFB, 0xFF, 0xBF], "-_-_"),
        ([0x03, 0xE0, 0x3F, 0xFF], "A-A__w"),
    ]

    @Test("encodes and decodes RFC 4648's vectors and the url-safe letters")
    func vectors() {
        for (bytes, text) in Self.vectors {
            #expect(Base64URL.encode(bytes) == text, "\(bytes)")
            #expect(Base64URL.decode(Substring(text)) == bytes, "\(text)")
        }
    }

    @Test("refuses padding, the standard alphabet's letters, other characters and impossible lengths")
    func refusals() {
        for text in ["Zg==", "Zm9vYg=", "+/+/", "ab/c", "Zm9v YmFy", "Zm9v\n", "Zm9vé", "Z", "Zm9vY"] {
            #expect(Base64URL.decode(Substring(text)) == nil, "\(text)")
        }
    }
}
