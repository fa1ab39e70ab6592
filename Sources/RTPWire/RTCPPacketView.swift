/// Where one RTCP packet of a compound packet lies, plus the fields of its common header.
///
/// A view holds offsets, not a pointer; pass it together with the buffer it came from to
/// the parsers (`RTCPSenderReport`, `RTCPFeedback`, ...).
public struct RTCPPacketView: Sendable, Equatable {
    /// The packet type (see `RTCPPacketType`).
    public var packetType: UInt8
    /// The 5-bit field after the padding bit: report count, source count or feedback format.
    public var countOrFormat: UInt8
    /// Offset of the packet's first byte in the buffer.
    public var offset: Int
    /// Length of the whole packet in bytes, header and padding included.
    public var length: Int
    /// Whether the padding bit is set.
    public var hasPadding: Bool
    /// Bytes of padding at the end of the packet, including the count byte; 0 without padding.
    public var paddingLength: Int

    /// Creates a view from known values.
    public init(
        packetType: UInt8,
        countOrFormat: UInt8,
        offset: Int,
        length: Int,
        hasPadding: Bool = false,
        paddingLength: Int = 0
    ) {
        self.packetType = packetType
        self.countOrFormat = countOrFormat
        self.offset = offset
        self.length = length
        self.hasPadding = hasPadding
        self.paddingLength = paddingLength
    }

    /// Length of the packet without its padding.
    public var contentLength: Int { length - paddingLength }

    /// Whether the view lies inside `buffer` and holds at least `minimumLength` content bytes.
    func fits(in buffer: UnsafeRawBufferPointer, minimumLength: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= buffer.count && length <= buffer.count - offset
            && contentLength >= minimumLength
    }
}
