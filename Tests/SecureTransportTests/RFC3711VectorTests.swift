import Testing

/// Checks the reference implementation against the vectors printed in RFC 3711 Appendix B,
/// so that agreement between libsrtp and the reference means agreement with the RFC.
@Suite("RFC 3711 Appendix B vectors, reference implementation")
struct RFC3711VectorTests {
    /// B.2: session key and salt for the keystream vector.
    static let keystreamKey = [UInt8](hex: "2B7E151628AED2A6ABF7158809CF4F3C")
    static let keystreamSalt = [UInt8](hex: "F0F1F2F3F4F5F6F7F8F9FAFBFCFD")

    /// B.2: keystream blocks by counter value (the low 16 bits of the IV).
    static let keystreamBlocks: [(block: Int, keystream: String)] = [
        (0x0000, "E03EAD0935C95E80E166B16DD92B4EB4"),
        (0x0001, "D23513162B02D0F72A43A2FE4A5F97AB"),
        (0x0002, "41E95B3BB0A2E8DD477901E4FCA894C0"),
        (0xFEFF, "EC8CDF7398607CB0F2D21675EA9EA1E4"),
        (0xFF00, "362B7C3C6773516318A077D7FC5073AE"),
        (0xFF01, "6A2CC3787889374FBEB4C81B17BA6C44"),
    ]

    /// The whole keystream up to the last block in the table, computed once.
    static let keystream: [UInt8] = SRTPReference.aesCMKeystream(
        key: keystreamKey,
        counter: SRTPReference.aesCMCounter(salt: keystreamSalt, ssrc: 0, index: 0),
        length: 0xFF02 * 16)

    @Test("B.2: the IV for SSRC 0, index 0 is the salt shifted left by 16 bits")
    func keystreamInitialCounter() {
        let counter = SRTPReference.aesCMCounter(salt: Self.keystreamSalt, ssrc: 0, index: 0)
        #expect(counter == [UInt8](hex: "F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000"))
    }

    @Test("B.2: AES-CM keystream blocks", arguments: keystreamBlocks)
    func keystreamBlock(block: Int, keystream: String) {
        let produced = Array(Self.keystream[block * 16..<(block + 1) * 16])
        #expect(produced.hex == [UInt8](hex: keystream).hex)
    }

    /// B.3: master key and master salt for the key derivation vectors.
    static let masterKey = [UInt8](hex: "E1F97A0D3E018BE0D64FA32C06DE4139")
    static let masterSalt = [UInt8](hex: "0EC675AD498AFEEBB6960B3AABE6")

    /// B.3: label, the PRF's starting IV the RFC prints, and the derived key.
    static let derivations: [(label: SRTPReference.Label, iv: String, derived: String)] = [
        (.rtpEncryption, "0EC675AD498AFEEBB6960B3AABE60000", "C61E7A93744F39EE10734AFE3FF7A087"),
        (.rtpSalt, "0EC675AD498AFEE9B6960B3AABE60000", "30CBBC08863D8C85D49DB34A9AE1"),
        (.rtpAuthentication, "0EC675AD498AFEEAB6960B3AABE60000", "CEBE321F6FF7716B6FD4AB49AF256A156D38BAA4"),
    ]

    @Test("B.3: key derivation with key derivation rate 0, packet index 0", arguments: derivations)
    func keyDerivation(label: SRTPReference.Label, iv: String, derived: String) {
        let counter = SRTPReference.derivationCounter(masterSalt: Self.masterSalt, label: label)
        #expect(counter.hex == [UInt8](hex: iv).hex)
        let expected = [UInt8](hex: derived)
        let produced = SRTPReference.derive(
            masterKey: Self.masterKey, masterSalt: Self.masterSalt, label: label, length: expected.count)
        #expect(produced.hex == expected.hex)
    }
}
