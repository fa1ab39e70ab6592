/// Where one attribute of a parsed STUN message lies: its type and the position of its
/// value in the packet it was parsed from. Padding is not part of the value.
public struct STUNAttribute: Sendable, Equatable {
    /// The attribute type.
    public var type: STUNAttributeType
    /// Offset of the first value byte (just after the 4-byte attribute header).
    public var valueOffset: Int
    /// Length of the value, as in the attribute's length field.
    public var valueLength: Int

    /// Creates an attribute view from known values.
    public init(type: STUNAttributeType, valueOffset: Int, valueLength: Int) {
        self.type = type
        self.valueOffset = valueOffset
        self.valueLength = valueLength
    }

    /// Offset of the attribute's 4-byte header.
    public var headerOffset: Int { valueOffset - 4 }

    /// The value bytes inside `packet`, or nil when the view does not lie inside it (the
    /// view came from a different packet).
    public func value(in packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard valueOffset >= 0, valueLength >= 0, valueOffset <= packet.count,
            valueLength <= packet.count - valueOffset
        else { return nil }
        return UnsafeRawBufferPointer(rebasing: packet[valueOffset..<(valueOffset + valueLength)])
    }

    /// The length of a value once padded to the next multiple of 4 bytes.
    static func paddedLength(_ valueLength: Int) -> Int {
        (valueLength + 3) & ~3
    }
}
