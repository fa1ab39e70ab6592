/// Walks the attributes of a STUN message without allocating.
///
/// Meant for a message that `STUNMessage(parsing:)` accepted; on any other buffer it stops
/// at the first attribute that does not fit instead of reading past the end. The iterator
/// only reads the buffer and must not outlive it.
public struct STUNAttributeIterator: IteratorProtocol {
    private let packet: UnsafeRawBufferPointer
    private var offset: Int

    /// Starts at the first attribute after the header of the message in `packet`.
    public init(_ packet: UnsafeRawBufferPointer) {
        self.packet = packet
        self.offset = STUNMessageHeader.length
    }

    /// The next attribute, or nil at the end of the message or at one that overruns it.
    public mutating func next() -> STUNAttribute? {
        guard packet.baseAddress != nil, offset <= packet.count - 4 else { return nil }
        let type = STUNAttributeType(rawValue: packet.readUInt16(at: offset))
        let valueLength = Int(packet.readUInt16(at: offset + 2))
        let valueOffset = offset + 4
        let paddedLength = STUNAttribute.paddedLength(valueLength)
        guard paddedLength <= packet.count - valueOffset else {
            offset = packet.count
            return nil
        }
        offset = valueOffset + paddedLength
        return STUNAttribute(type: type, valueOffset: valueOffset, valueLength: valueLength)
    }
}
