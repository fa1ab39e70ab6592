/// Small text helpers shared by the attribute parsers. Every helper returns nil or an empty
/// result on bad input instead of trapping, because the parser sees text from the network.
enum SDPText {
    /// Whether `byte` is a space or a horizontal tab, the separators SDP fields use.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Splits `text` at runs of spaces and tabs, dropping empty fields, so that doubled or
    /// trailing separators do not create phantom fields.
    static func fields(_ text: Substring) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, text[start] == " " || text[start] == "\t" { start = text.index(after: start) }
        while end > start {
            let previous = text.index(before: end)
            guard text[previous] == " " || text[previous] == "\t" else { break }
            end = previous
        }
        return text[start..<end]
    }

    /// Splits `text` at the first occurrence of `separator`; the second part is nil when
    /// the separator does not occur.
    static func splitOnce(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
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
