/// Walks the packets of a compound RTCP packet without allocating.
///
/// Iteration stops at the end of the buffer or at the first packet whose header cannot be
/// trusted (version other than 2, length running past the buffer, fewer than 4 bytes left,
/// or an impossible padding count); in the latter case `isMalformed` becomes true. The
/// iterator only reads the buffer; it must not outlive it.
public struct RTCPPacketIterator: IteratorProtocol {
    private let buffer: UnsafeRawBufferPointer
    private var position: Int
    /// True once a packet header was found that lies about its length or version.
    public private(set) var isMalformed: Bool

    /// Starts iterating over the compound packet in `buffer`.
    public init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        self.position = 0
        self.isMalformed = false
    }

    /// The next packet, or nil at the end or after a malformed header.
    public mutating func next() -> RTCPPacketView? {
        let remaining = buffer.count - position
        guard remaining > 0 else { return nil }
        guard remaining >= 4 else { return fail() }

        let first = buffer[position]
        guard first >> 6 == 2 else { return fail() }
        // The length field counts 32-bit words minus one, so every packet is at least the
        // 4-byte header and iteration always advances.
        let length = (Int(buffer.readUInt16(at: position + 2)) + 1) * 4
        guard length <= remaining else { return fail() }

        let hasPadding = first & 0x20 != 0
        var paddingLength = 0
        if hasPadding {
            paddingLength = Int(buffer[position + length - 1])
            guard paddingLength > 0, paddingLength <= length - 4 else { return fail() }
        }

        let view = RTCPPacketView(
            packetType: buffer[position + 1],
            countOrFormat: first & 0x1F,
            offset: position,
            length: length,
            hasPadding: hasPadding,
            paddingLength: paddingLength
        )
        position += length
        return view
    }

    private mutating func fail() -> RTCPPacketView? {
        isMalformed = true
        position = buffer.count
        return nil
    }
}
