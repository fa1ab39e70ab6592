/// The class of a STUN message (RFC 8489 section 5): what role the message plays in a
/// transaction.
public enum STUNMessageClass: UInt8, Sendable, Hashable {
    /// Asks the receiver for a response.
    case request = 0b00
    /// Carries information and asks for nothing back.
    case indication = 0b01
    /// Answers a request that succeeded.
    case successResponse = 0b10
    /// Answers a request that failed; carries an ERROR-CODE attribute.
    case errorResponse = 0b11

    /// Whether the message answers a request.
    public var isResponse: Bool { self == .successResponse || self == .errorResponse }
}
