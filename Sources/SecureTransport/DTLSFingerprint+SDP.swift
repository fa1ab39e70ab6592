extension DTLSFingerprint: CustomStringConvertible {
    /// Upper-case hexadecimal digits, as SDP writes fingerprints.
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Parses the value of an SDP `a=fingerprint:` attribute, such as
    /// `sha-256 AB:CD:...:EF` (RFC 8122 section 5).
    ///
    /// The hash function name and the hex digits may be in either case; the name and the
    /// digest are separated by one or more spaces or tabs, and surrounding white space is
    /// ignored. Returns `nil` for an unknown hash function, a digest of the wrong length or
    /// anything that is not colon-separated pairs of hex digits.
    public init?(sdpValue: String) {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let characters = Array(sdpValue.utf8)
        guard let start = characters.firstIndex(where: { !isBlank($0) }),
            let end = characters.lastIndex(where: { !isBlank($0) })
        else {
            return nil
        }
        let trimmed = characters[start...end]
        guard let nameEnd = trimmed.firstIndex(where: isBlank),
            let digestStart = trimmed[nameEnd...].firstIndex(where: { !isBlank($0) })
        else {
            return nil
        }
        let name = String(decoding: trimmed[..<nameEnd], as: UTF8.self).lowercased()
        guard let algorithm = DTLSFingerprintAlgorithm(rawValue: name),
            let digest = Self.parseHexPairs(trimmed[digestStart...])
        else {
            return nil
        }
        self.init(algorithm: algorithm, digest: digest)
    }

    /// The value for an SDP `a=fingerprint:` attribute: the hash function name, a space and
    /// the digest as upper-case hex pairs joined by colons.
    public var sdpValue: String {
        var text = Array(algorithm.rawValue.utf8)
        text.append(UInt8(ascii: " "))
        for (index, byte) in digest.enumerated() {
            if index > 0 {
                text.append(UInt8(ascii: ":"))
            }
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SDP form, ``sdpValue``.
    public var description: String { sdpValue }

    /// Bytes from `AB:CD:...`: exactly two hex digits per byte, one colon between bytes.
    private static func parseHexPairs(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let characters = Array(text)
        guard (characters.count + 1) % 3 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((characters.count + 1) / 3)
        var index = 0
        while index < characters.count {
            guard let high = hexValue(characters[index]),
                let low = hexValue(characters[index + 1])
            else {
                return nil
            }
            bytes.append(high << 4 | low)
            if index + 2 < characters.count {
                guard characters[index + 2] == UInt8(ascii: ":") else { return nil }
            }
            index += 3
        }
        return bytes
    }

    /// The value of one hex digit in either case, or `nil`.
    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
