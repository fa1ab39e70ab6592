/// Writes a STUN message into a caller-provided buffer, attribute by attribute, without
/// allocating.
///
/// The header length field is kept up to date after every attribute, as the MESSAGE-INTEGRITY
/// and FINGERPRINT computations need. Errors are sticky: once an attribute does not fit, or
/// one other than FINGERPRINT is appended after MESSAGE-INTEGRITY, or anything after
/// FINGERPRINT, every later call does nothing and `finish()` returns nil. Values are padded
/// to 4 bytes with zeros.
public struct STUNMessageWriter {
    private let buffer: UnsafeMutableRawBufferPointer
    private let transactionID: STUNTransactionID
    /// Bytes written so far, header included.
    public private(set) var length: Int
    /// Whether something did not fit or broke the attribute order.
    public private(set) var failed: Bool
    private var hasIntegrity = false
    private var hasFingerprint = false

    /// Starts a message of `type` with `transactionID` at the start of `buffer`.
    public init(into buffer: UnsafeMutableRawBufferPointer, type: STUNMessageType, transactionID: STUNTransactionID) {
        self.buffer = buffer
        self.transactionID = transactionID
        self.length = STUNMessageHeader.length
        self.failed = !buffer.hasRoom(for: STUNMessageHeader.length, at: 0)
        guard !failed else { return }
        buffer.writeUInt16(type.rawValue, at: 0)
        buffer.writeUInt16(0, at: 2)
        buffer.writeUInt32(STUNMessageHeader.magicCookie, at: 4)
        transactionID.write(into: buffer)
    }

    /// The length of the finished message, or nil when writing failed.
    public func finish() -> Int? {
        failed ? nil : length
    }

    /// Appends an attribute whose value is `value`.
    public mutating func append(_ type: STUNAttributeType, value: UnsafeRawBufferPointer) {
        guard let offset = beginAttribute(type, valueLength: value.count) else { return }
        if value.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + value.count)]).copyMemory(from: value)
        }
    }

    /// Appends an attribute whose value is the UTF-8 text `text`, such as SOFTWARE.
    public mutating func append(_ type: STUNAttributeType, text: StaticString) {
        text.withUTF8Buffer { utf8 in
            append(type, value: UnsafeRawBufferPointer(utf8))
        }
    }

    /// Appends an attribute holding a 32-bit value, such as PRIORITY.
    public mutating func append(_ type: STUNAttributeType, uint32 value: UInt32) {
        guard let offset = beginAttribute(type, valueLength: 4) else { return }
        buffer.writeUInt32(value, at: offset)
    }

    /// Appends an attribute holding a 64-bit value, such as ICE-CONTROLLING.
    public mutating func append(_ type: STUNAttributeType, uint64 value: UInt64) {
        guard let offset = beginAttribute(type, valueLength: 8) else { return }
        buffer.writeUInt64(value, at: offset)
    }

    /// Appends an attribute with an empty value, such as USE-CANDIDATE.
    public mutating func appendFlag(_ type: STUNAttributeType) {
        _ = beginAttribute(type, valueLength: 0)
    }

    /// Appends `address` as an XOR-MAPPED-ADDRESS (or another XOR address attribute).
    public mutating func appendXORAddress(_ address: STUNAddress, type: STUNAttributeType = .xorMappedAddress) {
        guard let offset = beginAttribute(type, valueLength: address.xorValueLength) else { return }
        address.writeXORValue(into: buffer, at: offset, transactionID: transactionID)
    }

    /// Appends ERROR-CODE with `code` and its standard reason phrase.
    public mutating func appendErrorCode(_ code: STUNErrorCode) {
        code.reasonPhrase.withUTF8Buffer { phrase in
            guard let offset = beginAttribute(.errorCode, valueLength: 4 + phrase.count) else { return }
            buffer.writeUInt16(0, at: offset)
            buffer[offset + 2] = UInt8(truncatingIfNeeded: code.rawValue / 100) & 0x07
            buffer[offset + 3] = UInt8(truncatingIfNeeded: code.rawValue % 100)
            if phrase.count > 0 {
                UnsafeMutableRawBufferPointer(rebasing: buffer[(offset + 4)..<(offset + 4 + phrase.count)])
                    .copyMemory(from: UnsafeRawBufferPointer(phrase))
            }
        }
    }

    /// Appends UNKNOWN-ATTRIBUTES listing the remembered types of `unknown`.
    public mutating func appendUnknownAttributes(_ unknown: STUNUnknownAttributes) {
        let count = unknown.storedCount
        guard let offset = beginAttribute(.unknownAttributes, valueLength: 2 * count) else { return }
        for index in 0..<count {
            buffer.writeUInt16(unknown[index].rawValue, at: offset + 2 * index)
        }
    }

    /// Appends MESSAGE-INTEGRITY with a zeroed value and returns where the HMAC goes and what
    /// it covers; nil when writing has failed. Only FINGERPRINT may follow.
    public mutating func appendIntegrityPlaceholder() -> STUNIntegritySlot? {
        guard let offset = beginAttribute(.messageIntegrity, valueLength: STUNIntegritySlot.codeLength) else { return nil }
        hasIntegrity = true
        return STUNIntegritySlot(signedLength: offset - 4, codeOffset: offset)
    }

    /// Appends FINGERPRINT, computed over everything written so far; nothing may follow.
    public mutating func appendFingerprint() {
        guard let offset = beginAttribute(.fingerprint, valueLength: 4) else { return }
        hasFingerprint = true
        let message = UnsafeRawBufferPointer(buffer)
        buffer.writeUInt32(STUNFingerprint.value(over: message, length: offset - 4), at: offset)
    }

    /// Checks the order rules and room, writes the attribute header and zero padding, and
    /// advances the length (in the header too). Returns the value offset, or nil on failure.
    private mutating func beginAttribute(_ type: STUNAttributeType, valueLength: Int) -> Int? {
        guard !failed else { return nil }
        let paddedLength = STUNAttribute.paddedLength(valueLength)
        let orderAllowed = !hasFingerprint && (!hasIntegrity || type == .fingerprint)
        guard orderAllowed, valueLength <= Int(UInt16.max),
            length + 4 + paddedLength - STUNMessageHeader.length <= Int(UInt16.max),
            buffer.hasRoom(for: 4 + paddedLength, at: length)
        else {
            failed = true
            return nil
        }
        buffer.writeUInt16(type.rawValue, at: length)
        buffer.writeUInt16(UInt16(valueLength), at: length + 2)
        let valueOffset = length + 4
        for padding in (valueOffset + valueLength)..<(valueOffset + paddedLength) {
            buffer[padding] = 0
        }
        length = valueOffset + paddedLength
        buffer.writeUInt16(UInt16(length - STUNMessageHeader.length), at: 2)
        return valueOffset
    }
}
