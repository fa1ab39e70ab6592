/// A parsed goodbye packet (RFC 3550 section 6.6). The optional reason text is not read.
public struct RTCPGoodbye: Sendable, Equatable {
    /// Number of SSRCs leaving.
    public var sourceCount: Int
    /// Offset of the packet in the buffer it was parsed from.
    public var offset: Int

    /// Parses the goodbye packet described by `view` in `buffer`; nil when it is not one or
    /// is too short for the SSRCs its header announces.
    public init?(view: RTCPPacketView, in buffer: UnsafeRawBufferPointer) {
        let sourceCount = Int(view.countOrFormat)
        guard view.packetType == RTCPPacketType.goodbye,
            view.fits(in: buffer, minimumLength: 4 + 4 * sourceCount)
        else { return nil }
        self.sourceCount = sourceCount
        self.offset = view.offset
    }

    /// The SSRC with index `index` (0 ..< `sourceCount`), or nil when out of range.
    public func ssrc(at index: Int, in buffer: UnsafeRawBufferPointer) -> UInt32? {
        guard index >= 0, index < sourceCount else { return nil }
        let ssrcOffset = offset + 4 + 4 * index
        guard ssrcOffset + 4 <= buffer.count else { return nil }
        return buffer.readUInt32(at: ssrcOffset)
    }
}
