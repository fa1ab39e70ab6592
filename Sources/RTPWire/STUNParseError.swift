/// Why a buffer is not a well-formed STUN message.
///
/// The header errors (`truncatedHeader` to `lengthMismatch`) mean the buffer should not be
/// treated as STUN at all; the others mean it is a STUN message with broken attributes, so
/// a request can still be answered with 400 Bad Request.
public enum STUNParseError: Error, Sendable, Hashable {
    /// Fewer than the 20 bytes of a STUN header.
    case truncatedHeader
    /// The two top bits of the first byte are not zero.
    case notSTUN
    /// The magic cookie is not 0x2112A442 (RFC 3489 messages end up here too).
    case badMagicCookie
    /// The header's length field is not a multiple of 4.
    case lengthNotMultipleOfFour
    /// The header's length field does not match the bytes that follow the header.
    case lengthMismatch
    /// An attribute's header or value runs past the end of the message.
    case attributeOverrun
    /// A known attribute has a value length its definition does not allow.
    case badAttributeLength(STUNAttributeType)
    /// An attribute other than FINGERPRINT follows MESSAGE-INTEGRITY.
    case attributeAfterIntegrity
    /// An attribute follows FINGERPRINT, which must be last.
    case attributeAfterFingerprint
    /// The FINGERPRINT value does not match the message.
    case fingerprintMismatch

    /// Whether the header itself was unusable, so the transaction ID and class cannot be
    /// trusted and the buffer must be dropped rather than answered.
    public var isHeaderError: Bool {
        switch self {
        case .truncatedHeader, .notSTUN, .badMagicCookie, .lengthNotMultipleOfFour, .lengthMismatch:
            return true
        case .attributeOverrun, .badAttributeLength, .attributeAfterIntegrity, .attributeAfterFingerprint,
            .fingerprintMismatch:
            return false
        }
    }
}
