/// Where a MESSAGE-INTEGRITY value is to be written in a message under construction, and
/// which bytes it signs.
///
/// `STUNMessageWriter` sets the header length field to end at MESSAGE-INTEGRITY before
/// handing out the slot, so the HMAC is taken over the first `signedLength` bytes as they
/// stand; appending FINGERPRINT afterwards changes only bytes outside that range.
public struct STUNIntegritySlot: Sendable, Equatable {
    /// Bytes at the start of the message the HMAC covers.
    public var signedLength: Int
    /// Offset of the 20 bytes that receive the HMAC.
    public var codeOffset: Int

    /// Creates a slot from known values.
    public init(signedLength: Int, codeOffset: Int) {
        self.signedLength = signedLength
        self.codeOffset = codeOffset
    }

    /// Length of a MESSAGE-INTEGRITY value (an HMAC-SHA-1 code).
    public static let codeLength = 20
}
