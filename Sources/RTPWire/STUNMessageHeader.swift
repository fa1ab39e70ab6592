/// The 20-byte header of a STUN message (RFC 8489 section 5).
public struct STUNMessageHeader: Sendable, Hashable {
    /// Length of every STUN header.
    public static let length = 20
    /// The fixed value in header bytes 4 to 7 that marks RFC 5389 and later STUN.
    public static let magicCookie: UInt32 = 0x2112_A442

    /// Method and class.
    public var type: STUNMessageType
    /// Bytes of attributes after the header, as in the length field.
    public var bodyLength: Int
    /// The transaction ID.
    public var transactionID: STUNTransactionID

    /// Creates a header from known values.
    public init(type: STUNMessageType, bodyLength: Int, transactionID: STUNTransactionID) {
        self.type = type
        self.bodyLength = bodyLength
        self.transactionID = transactionID
    }

    /// Reads and checks the header at the start of `packet`, which must be exactly one
    /// STUN message (as a UDP datagram is).
    ///
    /// Checks the two zero bits, the magic cookie, that the length field is a multiple of 4
    /// and that it accounts for exactly the bytes after the header.
    public init(parsing packet: UnsafeRawBufferPointer) throws(STUNParseError) {
        guard packet.count >= Self.length, packet.baseAddress != nil else { throw .truncatedHeader }
        let rawType = packet.readUInt16(at: 0)
        guard rawType & 0xC000 == 0 else { throw .notSTUN }
        guard packet.readUInt32(at: 4) == Self.magicCookie else { throw .badMagicCookie }
        let bodyLength = Int(packet.readUInt16(at: 2))
        guard bodyLength & 3 == 0 else { throw .lengthNotMultipleOfFour }
        guard bodyLength == packet.count - Self.length else { throw .lengthMismatch }
        self.init(
            type: STUNMessageType(rawValue: rawType),
            bodyLength: bodyLength,
            transactionID: STUNTransactionID.read(from: packet)
        )
    }

    /// Length of the whole message, header included.
    public var messageLength: Int { Self.length + bodyLength }
}
