import RTPWire
import Testing

/// One broken STUN message and what parsing it must report.
struct STUNMalformedCase: Sendable, CustomTestStringConvertible {
    /// What is wrong, for the test report.
    var name: String
    /// The datagram.
    var bytes: [UInt8]
    /// The parse error expected, or nil when the structure is fine and only
    /// MESSAGE-INTEGRITY fails to verify.
    var error: STUNParseError?

    var testDescription: String { name }
}
