/// The 16-bit type of a STUN attribute (RFC 8489 section 14 and 18.3, RFC 8445 section 16.1).
///
/// Types below 0x8000 are comprehension-required: a receiver that does not understand one
/// must not process the message as if it were absent.
public struct STUNAttributeType: RawRepresentable, Sendable, Hashable {
    /// The type number.
    public var rawValue: UInt16

    /// Creates an attribute type from its number.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Whether a receiver that does not know this type must reject the message.
    public var isComprehensionRequired: Bool { rawValue < 0x8000 }

    /// MAPPED-ADDRESS: the reflexive address without the XOR disguise (RFC 3489 clients).
    public static let mappedAddress = STUNAttributeType(rawValue: 0x0001)
    /// USERNAME: for ICE, "receiver-ufrag:sender-ufrag".
    public static let username = STUNAttributeType(rawValue: 0x0006)
    /// MESSAGE-INTEGRITY: HMAC-SHA-1 over the message, keyed with the password.
    public static let messageIntegrity = STUNAttributeType(rawValue: 0x0008)
    /// ERROR-CODE: the class and number of an error response, plus a reason phrase.
    public static let errorCode = STUNAttributeType(rawValue: 0x0009)
    /// UNKNOWN-ATTRIBUTES: the comprehension-required types a 420 response did not understand.
    public static let unknownAttributes = STUNAttributeType(rawValue: 0x000A)
    /// MESSAGE-INTEGRITY-SHA256 (RFC 8489): recognised so it may follow MESSAGE-INTEGRITY, but
    /// not checked; ICE keys connectivity checks with MESSAGE-INTEGRITY.
    public static let messageIntegritySHA256 = STUNAttributeType(rawValue: 0x001C)
    /// XOR-MAPPED-ADDRESS: the address the request came from, XORed with the cookie and ID.
    public static let xorMappedAddress = STUNAttributeType(rawValue: 0x0020)
    /// PRIORITY: the priority a peer-reflexive candidate learnt from this check would get.
    public static let priority = STUNAttributeType(rawValue: 0x0024)
    /// USE-CANDIDATE: the controlling agent nominates the pair this check travels on.
    public static let useCandidate = STUNAttributeType(rawValue: 0x0025)
    /// SOFTWARE: a free-form description of the sender's software.
    public static let software = STUNAttributeType(rawValue: 0x8022)
    /// FINGERPRINT: CRC-32 of the message XOR 0x5354554E, to tell STUN from other traffic.
    public static let fingerprint = STUNAttributeType(rawValue: 0x8028)
    /// ICE-CONTROLLED: the sender believes it is the controlled agent; carries its tie-breaker.
    public static let iceControlled = STUNAttributeType(rawValue: 0x8029)
    /// ICE-CONTROLLING: the sender believes it is the controlling agent; carries its tie-breaker.
    public static let iceControlling = STUNAttributeType(rawValue: 0x802A)

    /// Whether this implementation understands the type, so a comprehension-required one
    /// does not make a request fail with 420.
    public var isKnown: Bool {
        switch self {
        case .mappedAddress, .username, .messageIntegrity, .errorCode, .unknownAttributes,
            .messageIntegritySHA256, .xorMappedAddress, .priority, .useCandidate, .software,
            .fingerprint, .iceControlled, .iceControlling:
            return true
        default:
            return false
        }
    }

    /// The value lengths a well-formed attribute of this type may have, or nil when any
    /// length up to the message size is allowed.
    var allowedValueLengths: ClosedRange<Int>? {
        switch self {
        case .messageIntegrity: return 20...20
        case .messageIntegritySHA256: return 16...32
        case .fingerprint, .priority: return 4...4
        case .useCandidate: return 0...0
        case .iceControlled, .iceControlling: return 8...8
        case .mappedAddress, .xorMappedAddress: return 8...20
        // Class and number take 4 bytes; the reason phrase is at most 763 bytes.
        case .errorCode: return 4...767
        // Shorter than 513 bytes (RFC 5389 section 15.3; RFC 8489 asks senders for under 509).
        case .username: return 0...512
        // Fewer than 128 characters, at most 763 bytes (RFC 8489 section 14.14).
        case .software: return 0...763
        default: return nil
        }
    }
}
