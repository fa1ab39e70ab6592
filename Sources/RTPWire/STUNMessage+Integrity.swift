extension STUNMessage {
    /// How many leading bytes of the message MESSAGE-INTEGRITY covers: everything before the
    /// attribute itself. Nil without MESSAGE-INTEGRITY.
    public var integritySignedLength: Int? {
        integrity?.headerOffset
    }

    /// The header length field the integrity was computed with (RFC 8489 section 14.5): it
    /// counts the attributes up to and including MESSAGE-INTEGRITY but not FINGERPRINT after it.
    public var integrityLengthField: UInt16? {
        guard let integrity else { return nil }
        return UInt16(truncatingIfNeeded: integrity.valueOffset + integrity.valueLength - STUNMessageHeader.length)
    }

    /// Copies the bytes MESSAGE-INTEGRITY covers into `scratch`, with the header length field
    /// set as it was when the sender computed the HMAC, so that HMAC-SHA-1 over the result
    /// can be compared with the attribute's value.
    ///
    /// The packet itself stays untouched, so received buffers can be read-only.
    ///
    /// - Returns: the number of bytes written, or nil without MESSAGE-INTEGRITY or when
    ///   `scratch` is too short or `packet` is not the buffer this message came from.
    public func integrityInput(from packet: UnsafeRawBufferPointer, into scratch: UnsafeMutableRawBufferPointer) -> Int? {
        guard let signedLength = integritySignedLength, let lengthField = integrityLengthField,
            signedLength <= packet.count, packet.baseAddress != nil,
            scratch.hasRoom(for: signedLength, at: 0)
        else { return nil }
        scratch.copyMemory(from: UnsafeRawBufferPointer(rebasing: packet[0..<signedLength]))
        scratch.writeUInt16(lengthField, at: 2)
        return signedLength
    }

    /// The 20 MESSAGE-INTEGRITY bytes to compare the HMAC with, or nil without the attribute.
    public func integrityValue(in packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        integrity?.value(in: packet)
    }
}
