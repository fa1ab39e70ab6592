/// The one rule for room and user ids, wherever they enter the relay (joinRoom, forward targets,
/// links, invitations, messages, tokens, the admin API): 1-128 ASCII letters, digits and
/// `. _ - @ :`, so that every id is safe in logs, metric labels, webhook bodies and admin URLs.
public enum RelayIdentifier {
    /// The longest id, in bytes.
    public static let maximumLength = 128

    /// What the rule says, for error messages.
    public static let rule = "1-128 characters of letters, digits and . _ - @ :"

    /// Whether `text` is a valid room or user id.
    public static func isValid(_ text: String) -> Bool { problem(with: text) == nil }

    /// Why `text` is not a valid id (a phrase such as "is empty"), or nil when it is valid.
    public static func problem(with text: String) -> String? {
        let count = text.utf8.count
        if count == 0 { return "is empty" }
        if count > maximumLength { return "is \(count) bytes long; ids are \(rule)" }
        for byte in text.utf8 where !isAllowed(byte) {
            return "must be \(rule)"
        }
        return nil
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: ":"): true
        default: false
        }
    }
}
