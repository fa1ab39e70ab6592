/// A parsed STUN message (RFC 8489): the header plus where its attributes lie.
///
/// Parsing checks the whole structure once: header, attribute bounds, the lengths of known
/// attributes, that only FINGERPRINT follows MESSAGE-INTEGRITY and that FINGERPRINT is last
/// and correct. It never allocates; the message is a view that holds offsets, so pass it
/// together with the packet it came from to the accessors.
///
/// MESSAGE-INTEGRITY is located but not checked here, because that needs HMAC-SHA-1 and a
/// password: `integrityInput(from:into:)` prepares the bytes to sign.
public struct STUNMessage: Sendable, Equatable {
    /// The header fields.
    public var header: STUNMessageHeader
    /// The MESSAGE-INTEGRITY attribute, if present.
    public var integrity: STUNAttribute?
    /// The FINGERPRINT attribute, if present; parsing has already checked its value.
    public var fingerprint: STUNAttribute?
    /// Comprehension-required attribute types this implementation does not understand.
    public var unknownComprehensionRequired: STUNUnknownAttributes

    /// Creates a message view from known values.
    public init(
        header: STUNMessageHeader,
        integrity: STUNAttribute? = nil,
        fingerprint: STUNAttribute? = nil,
        unknownComprehensionRequired: STUNUnknownAttributes = STUNUnknownAttributes()
    ) {
        self.header = header
        self.integrity = integrity
        self.fingerprint = fingerprint
        self.unknownComprehensionRequired = unknownComprehensionRequired
    }

    /// Parses `packet`, which must hold exactly one STUN message.
    public init(parsing packet: UnsafeRawBufferPointer) throws(STUNParseError) {
        let header = try STUNMessageHeader(parsing: packet)
        var integrity: STUNAttribute?
        var fingerprint: STUNAttribute?
        var unknown = STUNUnknownAttributes()

        var offset = STUNMessageHeader.length
        while offset < packet.count {
            // The header check made the body a multiple of 4 and every attribute advances by
            // a multiple of 4, so an attribute header either fits or nothing is left.
            guard packet.count - offset >= 4 else { throw .attributeOverrun }
            let type = STUNAttributeType(rawValue: packet.readUInt16(at: offset))
            let valueLength = Int(packet.readUInt16(at: offset + 2))
            let valueOffset = offset + 4
            let paddedLength = STUNAttribute.paddedLength(valueLength)
            guard paddedLength <= packet.count - valueOffset else { throw .attributeOverrun }

            guard fingerprint == nil else { throw .attributeAfterFingerprint }
            // RFC 8489 lets receivers ignore what follows MESSAGE-INTEGRITY; rejecting it
            // instead keeps a forged tail from ever being mistaken for signed content.
            if integrity != nil, type != .fingerprint, type != .messageIntegritySHA256 {
                throw .attributeAfterIntegrity
            }
            if let allowed = type.allowedValueLengths, !allowed.contains(valueLength) {
                throw .badAttributeLength(type)
            }

            let attribute = STUNAttribute(type: type, valueOffset: valueOffset, valueLength: valueLength)
            switch type {
            case .messageIntegrity:
                integrity = attribute
            case .fingerprint:
                fingerprint = attribute
            default:
                if type.isComprehensionRequired, !type.isKnown {
                    unknown.append(type)
                }
            }
            offset = valueOffset + paddedLength
        }

        if let fingerprint {
            // FINGERPRINT is last, so the length field already counts it as the CRC requires.
            let expected = STUNFingerprint.value(over: packet, length: fingerprint.headerOffset)
            guard packet.readUInt32(at: fingerprint.valueOffset) == expected else { throw .fingerprintMismatch }
        }

        self.init(header: header, integrity: integrity, fingerprint: fingerprint, unknownComprehensionRequired: unknown)
    }

    /// Method and class.
    public var type: STUNMessageType { header.type }

    /// The transaction ID.
    public var transactionID: STUNTransactionID { header.transactionID }

    /// Length of the whole message, header included.
    public var length: Int { header.messageLength }
}
