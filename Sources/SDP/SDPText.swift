/// Small text helpers shared by the attribute parsers. Every helper returns nil or an empty
/// result on bad input instead of trapping, because the parser sees text from the network.
///
/// SDP is bytes (RFC 8866 §5): its separators are ASCII characters, and text is split at those
/// bytes, never at Swift `Character`s. A character is a grapheme cluster, and a combining mark
/// after a separator (`=`, `:`, a blank) joins it into one character that compares equal to
/// no separator, so a line read by characters is cut in other places than the same line
/// read again after writing it. Splitting at an ASCII byte always leaves whole Unicode
/// scalars on both sides.
enum SDPText {
    /// Whether `byte` is a space or a horizontal tab, the separators SDP fields use.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Splits `text` at runs of spaces and tabs, dropping empty fields, so that doubled or
    /// trailing separators do not create phantom fields.
    static func fields(_ text: Substring) -> [Substring] {
        text.utf8.split(whereSeparator: isBlank).map(Substring.init)
    }

    /// Splits `text` at every `separator`, an ASCII character.
    static func split(_ text: Substring, at separator: Unicode.Scalar, omittingEmptySubsequences: Bool = true) -> [Substring] {
        let byte = UInt8(ascii: separator)
        return text.utf8.split(separator: byte, omittingEmptySubsequences: omittingEmptySubsequences).map(Substring.init)
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return Substring(bytes[bytes.endIndex...])
        }
        return Substring(bytes[first...last])
    }

    /// Splits `text` at the first occurrence of `separator`, an ASCII character; the second
    /// part is nil when the separator does not occur.
    static func splitOnce(_ text: Substring, at separator: Unicode.Scalar) -> (Substring, Substring?) {
        let byte = UInt8(ascii: separator)
        let bytes = text.utf8
        guard let index = bytes.firstIndex(of: byte) else { return (text, nil) }
        return (Substring(bytes[..<index]), Substring(bytes[bytes.index(after: index)...]))
    }

    /// Splits `text` at its first space or tab: the text before it, and the rest from the
    /// blank on (empty when there is none).
    static func splitAtFirstBlank(_ text: Substring) -> (Substring, Substring) {
        let bytes = text.utf8
        let index = bytes.firstIndex(where: isBlank) ?? bytes.endIndex
        return (Substring(bytes[..<index]), Substring(bytes[index...]))
    }

    /// Whether `text` starts with the bytes of `prefix`.
    static func hasPrefix(_ text: Substring, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    /// `text` without its first `count` bytes, which must be ASCII.
    static func droppingASCII(_ count: Int, from text: Substring) -> Substring {
        Substring(text.utf8.dropFirst(count))
    }

    /// The unsigned decimal number spelled by `text`, or nil when `text` is empty, holds
    /// anything but ASCII digits, or does not fit `T`.
    static func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ text: Substring, as type: T.Type) -> T? {
        guard !text.isEmpty, text.utf8.count <= 24, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return T(text, radix: 10)
    }

    /// A payload type: a decimal number from 0 to 127, the 7 bits RTP has for it.
    static func payloadType(_ text: Substring) -> UInt8? {
        guard let value = unsigned(text, as: UInt8.self), value <= 127 else { return nil }
        return value
    }

    /// Whether `text` is a non-empty token without spaces, tabs or control characters.
    static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }
}
