/// The number of a STUN error response (RFC 8489 section 14.8), such as 401.
public struct STUNErrorCode: RawRepresentable, Sendable, Hashable {
    /// The code, 300 to 699.
    public var rawValue: Int

    /// Creates a code from its number.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// 400: the request was malformed (for ICE: USERNAME or MESSAGE-INTEGRITY missing).
    public static let badRequest = STUNErrorCode(rawValue: 400)
    /// 401: the USERNAME is not ours or MESSAGE-INTEGRITY does not verify.
    public static let unauthorized = STUNErrorCode(rawValue: 401)
    /// 420: the request had comprehension-required attributes the receiver does not know.
    public static let unknownAttribute = STUNErrorCode(rawValue: 420)
    /// 487: both agents claim the same ICE role (RFC 8445 section 7.3.1.1).
    public static let roleConflict = STUNErrorCode(rawValue: 487)

    /// The reason phrase sent with this code; a static string so writing it never allocates.
    public var reasonPhrase: StaticString {
        switch rawValue {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 420: return "Unknown Attribute"
        case 487: return "Role Conflict"
        default: return ""
        }
    }

    /// Decodes an ERROR-CODE value: 21 zero bits, the hundreds in 3 bits, then the rest
    /// (0...99) in a byte. Returns nil for a value shorter than 4 bytes or out of range.
    public init?(errorCodeValue value: UnsafeRawBufferPointer) {
        guard value.count >= 4 else { return nil }
        let hundreds = Int(value[2] & 0x07)
        let remainder = Int(value[3])
        guard (3...6).contains(hundreds), remainder < 100 else { return nil }
        self.init(rawValue: hundreds * 100 + remainder)
    }
}
