extension SDESKeying {
    /// The standard Base64 alphabet (RFC 4648 section 4), as `a=crypto inline:` uses it.
    private static let base64Alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The padding character.
    private static let base64Padding = UInt8(ascii: "=")

    /// Encodes bytes as standard Base64 with `=` padding.
    public static func encodeBase64(_ bytes: [UInt8]) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let first = UInt32(bytes[index])
            let second = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let third = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            encoded.append(base64Alphabet[Int(group >> 18 & 0x3F)])
            encoded.append(base64Alphabet[Int(group >> 12 & 0x3F)])
            encoded.append(remaining > 1 ? base64Alphabet[Int(group >> 6 & 0x3F)] : base64Padding)
            encoded.append(remaining > 2 ? base64Alphabet[Int(group & 0x3F)] : base64Padding)
            index += 3
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Decodes standard Base64 with `=` padding, strictly.
    ///
    /// Returns `nil` for anything a conforming encoder would not have produced: characters
    /// outside the alphabet (including whitespace and the URL-safe `-` and `_`), a length
    /// that is not a multiple of four, padding anywhere but at the end, and non-zero bits
    /// in the last character before the padding. Key material is compared and logged by
    /// its encoding, so accepting only one spelling per key avoids surprises.
    public static func decodeBase64(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        guard !characters.isEmpty else { return [] }

        let paddingCount: Int
        if characters[characters.count - 1] == base64Padding {
            paddingCount = characters[characters.count - 2] == base64Padding ? 2 : 1
        } else {
            paddingCount = 0
        }
        let significantCount = characters.count - paddingCount

        var decoded: [UInt8] = []
        decoded.reserveCapacity(characters.count / 4 * 3)
        var group: UInt32 = 0
        var bitsInGroup = 0
        for position in 0..<significantCount {
            guard let value = base64Value(of: characters[position]) else { return nil }
            group = group << 6 | UInt32(value)
            bitsInGroup += 6
            if bitsInGroup >= 8 {
                bitsInGroup -= 8
                decoded.append(UInt8(truncatingIfNeeded: group >> UInt32(bitsInGroup)))
                group &= (1 << UInt32(bitsInGroup)) - 1
            }
        }
        // Leftover bits are the zero fill a canonical encoder adds before the padding.
        guard group == 0 else { return nil }
        return decoded
    }

    /// The 6-bit value of one Base64 character, or `nil` when it is not in the alphabet.
    private static func base64Value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
