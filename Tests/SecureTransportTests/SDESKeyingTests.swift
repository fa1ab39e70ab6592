import SecureTransport
import Testing

@Suite("SDES keying material and Base64")
struct SDESKeyingTests {
    /// RFC 4648 section 10 vectors plus bytes that use the last two alphabet characters.
    static let encodings: [(bytes: [UInt8], text: String)] = [
        ([], ""),
        (Array("f".utf8), "Zg=="),
        (Array("fo".utf8), "Zm8="),
        (Array("foo".utf8), "Zm9v"),
        (Array("foob".utf8), "Zm9vYg=="),
        (Array("fooba".utf8), "Zm9vYmE="),
        (Array("foobar".utf8), "Zm9vYmFy"),
        ([0xFB, 0xFF], "+/8="),
        ([0x00, 0x00, 0x00], "AAAA"),
        ([0xFF, 0xFF, 0xFF, 0xFF], "/////w=="),
    ]

    @Test("Encoding", arguments: encodings)
    func encode(bytes: [UInt8], text: String) {
        #expect(SDESKeying.encodeBase64(bytes) == text)
    }

    @Test("Decoding", arguments: encodings)
    func decode(bytes: [UInt8], text: String) {
        #expect(SDESKeying.decodeBase64(text) == bytes)
    }

    @Test(
        "Invalid Base64 is rejected",
        arguments: [
            "Zg=",  // length not a multiple of four
            "Zg",  // padding missing
            "Z===",  // three padding characters
            "====",  // padding only
            "=Zm8",  // padding first
            "Zm8=Zm8=",  // padding in the middle
            "Zm9v!A==",  // character outside the alphabet
            "Zm 9v",  // embedded space
            "Zm9v\n",  // trailing newline
            "-_8=",  // URL-safe alphabet
            "Zh==",  // non-zero bits under the padding
            "Zm9=",  // non-zero bits under the padding
            "Zm9vYmFyé===",  // non-ASCII
        ])
    func invalid(text: String) {
        #expect(SDESKeying.decodeBase64(text) == nil)
    }

    @Test("The RFC 4568 example inline key decodes to AES_CM_128_HMAC_SHA1_80 keying material")
    func rfc4568InlineKey() throws {
        let material = try #require(SDESKeying.decodeBase64("PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR"))
        #expect(material.count == 30)
        #expect(SDESKeying.validate(material, for: .aesCM128HMACSHA1_80))
        #expect(!SDESKeying.validate(material, for: .aeadAES128GCM))
        #expect(SDESKeying.encodeBase64(material) == "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR")
    }

    @Test(
        "Generated material has the profile's length, validates, differs each time and keys a session",
        arguments: SRTPProfile.allCases)
    func generate(profile: SRTPProfile) throws {
        let first = SDESKeying.generateKeyingMaterial(for: profile)
        let second = SDESKeying.generateKeyingMaterial(for: profile)
        #expect(first.count == profile.keyingMaterialLength)
        #expect(SDESKeying.validate(first, for: profile))
        #expect(first != second)
        #expect(SDESKeying.decodeBase64(SDESKeying.encodeBase64(first)) == first)
        _ = try SRTPSession(profile: profile, keyingMaterial: first, direction: .sender)
    }

    @Test("Validation refuses wrong lengths and all-zero material", arguments: SRTPProfile.allCases)
    func validate(profile: SRTPProfile) {
        let length = profile.keyingMaterialLength
        #expect(!SDESKeying.validate([], for: profile))
        #expect(!SDESKeying.validate([UInt8](repeating: 1, count: length - 1), for: profile))
        #expect(!SDESKeying.validate([UInt8](repeating: 1, count: length + 1), for: profile))
        #expect(!SDESKeying.validate([UInt8](repeating: 0, count: length), for: profile))
        #expect(SDESKeying.validate([UInt8](repeating: 0, count: length - 1) + [1], for: profile))
    }
}
