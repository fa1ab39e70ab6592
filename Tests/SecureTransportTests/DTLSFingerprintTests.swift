import SecureTransport
import Testing

/// Fingerprints: hashing, the SDP text form and comparison.
@Suite("DTLS fingerprints")
struct DTLSFingerprintTests {
    /// FIPS 180-2 digests of "abc", so the hashing is checked against published values.
    static let abcDigests: [DTLSFingerprintAlgorithm: String] = [
        .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        .sha384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            + "8086072ba1e7cc2358baeca134c825a7",
        .sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ]

    @Test("Hashes match the published SHA-2 values", arguments: DTLSFingerprintAlgorithm.allCases)
    func publishedDigests(algorithm: DTLSFingerprintAlgorithm) throws {
        let fingerprint = DTLSFingerprint(algorithm: algorithm, certificateDER: Array("abc".utf8))
        #expect(fingerprint.digest.hex == Self.abcDigests[algorithm])
        #expect(fingerprint.digest.count == algorithm.digestLength)
        #expect(fingerprint.matches(certificateDER: Array("abc".utf8)))
        #expect(!fingerprint.matches(certificateDER: Array("abd".utf8)))
    }

    @Test("The SDP form is the name, a space and upper-case hex pairs joined by colons")
    func sdpFormat() throws {
        let fingerprint = try #require(DTLSFingerprint(algorithm: .sha256, digest: Array(0..<32)))
        #expect(
            fingerprint.sdpValue == "sha-256 00:01:02:03:04:05:06:07:08:09:0A:0B:0C:0D:0E:0F:"
                + "10:11:12:13:14:15:16:17:18:19:1A:1B:1C:1D:1E:1F")
        #expect(fingerprint.description == fingerprint.sdpValue)
        let sha512 = DTLSFingerprint(algorithm: .sha512, certificateDER: [1, 2, 3])
        #expect(sha512.sdpValue.hasPrefix("sha-512 "))
        #expect(sha512.sdpValue.utf8.count == 8 + 64 * 3 - 1)
    }

    @Test("Parsing reverses formatting for every algorithm", arguments: DTLSFingerprintAlgorithm.allCases)
    func roundTrip(algorithm: DTLSFingerprintAlgorithm) throws {
        let fingerprint = DTLSFingerprint(algorithm: algorithm, certificateDER: Array("round trip".utf8))
        #expect(DTLSFingerprint(sdpValue: fingerprint.sdpValue) == fingerprint)
    }

    @Test("Parsing accepts either case and extra white space; equal fingerprints compare equal")
    func lenientParsing() throws {
        let canonical = try #require(DTLSFingerprint(sdpValue: "sha-256 " + Self.pairs(32, "AB")))
        let variants = [
            "SHA-256 " + Self.pairs(32, "ab"),
            "  sha-256\t\t" + Self.pairs(32, "aB") + "  ",
            "Sha-256   " + Self.pairs(32, "Ab"),
        ]
        for variant in variants {
            #expect(DTLSFingerprint(sdpValue: variant) == canonical)
        }
        #expect(canonical.digest == Array(repeating: 0xAB, count: 32))
        let other = try #require(DTLSFingerprint(sdpValue: "sha-256 " + Self.pairs(32, "AC")))
        #expect(other != canonical)
        let sameBytesOtherHash = try #require(DTLSFingerprint(algorithm: .sha384, digest: Array(repeating: 0xAB, count: 48)))
        #expect(sameBytesOtherHash != canonical)
    }

    @Test(
        "Parsing rejects malformed values",
        arguments: [
            "",
            "sha-256",
            "sha-256 ",
            "md5 " + pairs(16, "AB"),
            "sha-1 " + pairs(20, "AB"),
            "sha-256 " + pairs(31, "AB"),
            "sha-256 " + pairs(33, "AB"),
            "sha-384 " + pairs(32, "AB"),
            "sha-256 " + pairs(32, "AB") + ":",
            "sha-256 :" + pairs(32, "AB"),
            "sha-256 " + pairs(32, "AB").replacingFirstColon(with: "-"),
            "sha-256 " + pairs(32, "AB").replacingFirstColon(with: "::"),
            "sha-256 " + pairs(32, "GZ"),
            "sha-256 " + String(repeating: "AB", count: 32),
            "sha-256" + pairs(32, "AB"),
        ])
    func rejectsMalformed(value: String) {
        #expect(DTLSFingerprint(sdpValue: value) == nil)
    }

    @Test("A digest of the wrong length is refused")
    func wrongDigestLength() {
        #expect(DTLSFingerprint(algorithm: .sha256, digest: Array(repeating: 1, count: 31)) == nil)
        #expect(DTLSFingerprint(algorithm: .sha384, digest: Array(repeating: 1, count: 32)) == nil)
        #expect(DTLSFingerprint(algorithm: .sha512, digest: Array(repeating: 1, count: 64)) != nil)
    }

    /// `count` copies of `pair` joined by colons.
    static func pairs(_ count: Int, _ pair: String) -> String {
        Array(repeating: pair, count: count).joined(separator: ":")
    }
}

extension String {
    /// This text with its first colon replaced.
    fileprivate func replacingFirstColon(with replacement: String) -> String {
        guard let colon = firstIndex(of: ":") else { return self }
        return self[..<colon] + replacement + self[index(after: colon)...]
    }
}
