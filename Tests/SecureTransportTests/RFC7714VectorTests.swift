import Testing

/// Checks the reference AES-GCM transform against RFC 7714 section 16.1.1, which gives
/// session keys directly (no key derivation).
@Suite("RFC 7714 section 16 vectors, reference implementation")
struct RFC7714VectorTests {
    static let sessionKey = [UInt8](hex: "000102030405060708090a0b0c0d0e0f")
    /// "Quid pro quo".
    static let sessionSalt = [UInt8](hex: "517569642070726f2071756f")
    /// SSRC 0x5501a0b2, sequence number 0xf17b, payload "Gallia est omnis divisa in partes tres".
    static let plainPacket = [UInt8](
        hex: """
            8040f17b 8041f8d3 5501a0b2 47616c6c 69612065 7374206f 6d6e6973
            20646976 69736120 696e2070 61727465 73207472 6573
            """)

    @Test("16.1: IV from salt, SSRC, rollover counter 0 and sequence number")
    func initializationVector() {
        let iv = SRTPReference.gcmRTPIV(
            salt: Self.sessionSalt, ssrc: 0x5501_A0B2, rolloverCounter: 0, sequenceNumber: 0xF17B)
        #expect(iv.hex == "51753c6580c2726f20718414")
    }

    @Test("16.1.1: AEAD_AES_128_GCM encryption, header as associated data, 16-byte tag")
    func encryption() {
        let keys = SRTPReferenceKeys(encryptionKey: Self.sessionKey, authenticationKey: [], salt: Self.sessionSalt)
        let protected = SRTPReference.protectRTPWithGCM(Self.plainPacket, keys: keys, rolloverCounter: 0)
        let expected = [UInt8](
            hex: """
                8040f17b 8041f8d3 5501a0b2 f24de3a3 fb34de6c acba861c 9d7e4bca
                be633bd5 0d294e6f 42a5f47a 51c7d19b 36de3adf 8833899d 7f27beb1
                6a9152cf 765ee439 0cce
                """)
        #expect(protected.hex == expected.hex)
    }
}
