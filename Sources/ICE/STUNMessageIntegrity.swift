public import RTPWire
public import SecureTransport

/// Computes and checks MESSAGE-INTEGRITY (RFC 8489 section 14.5) with short-term
/// credentials, where the key is the password's UTF-8 bytes (ICE passwords are plain ASCII,
/// so the OpaqueString preparation changes nothing).
public enum STUNMessageIntegrity {
    /// Writes the HMAC-SHA-1 of the slot's signed bytes into the slot; no allocation.
    public static func sign(_ slot: STUNIntegritySlot, in buffer: UnsafeMutableRawBufferPointer, key: UnsafeRawBufferPointer) {
        precondition(
            slot.signedLength >= 0 && slot.signedLength <= slot.codeOffset
                && buffer.count - STUNIntegritySlot.codeLength >= slot.codeOffset,
            "integrity slot outside the buffer")
        let signed = UnsafeRawBufferPointer(rebasing: buffer[0..<slot.signedLength])
        let code = UnsafeMutableRawBufferPointer(rebasing: buffer[slot.codeOffset..<(slot.codeOffset + STUNIntegritySlot.codeLength)])
        HMACSHA1.authenticate(message: signed, key: key, into: code)
    }

    /// Whether the MESSAGE-INTEGRITY of `message` (parsed from `packet`) verifies under `key`.
    ///
    /// The signed bytes are first copied into `scratch` with the length field the sender
    /// used, so `packet` stays untouched; `scratch` must be at least as long as the bytes
    /// before MESSAGE-INTEGRITY. False without MESSAGE-INTEGRITY or with too little scratch.
    public static func isValid(
        _ message: STUNMessage,
        in packet: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        scratch: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard let code = message.integrityValue(in: packet),
            let signedLength = message.integrityInput(from: packet, into: scratch)
        else { return false }
        return HMACSHA1.isValid(code, message: UnsafeRawBufferPointer(rebasing: scratch[0..<signedLength]), key: key)
    }
}
