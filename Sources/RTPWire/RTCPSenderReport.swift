/// A parsed sender report (RFC 3550 section 6.4.1). Report blocks stay in the buffer and are
/// read one at a time with `reportBlock(at:in:)`.
public struct RTCPSenderReport: Sendable, Equatable {
    /// Bytes before the first report block: common header, SSRC and sender info.
    static let blocksOffset = 28

    /// The sender's SSRC.
    public var ssrc: UInt32
    /// The 64-bit NTP wall clock time at which the report was sent.
    public var ntpTimestamp: UInt64
    /// The RTP timestamp corresponding to `ntpTimestamp`.
    public var rtpTimestamp: UInt32
    /// Packets sent since the sender started.
    public var packetCount: UInt32
    /// Payload octets sent since the sender started.
    public var octetCount: UInt32
    /// Number of report blocks in the packet.
    public var reportCount: Int
    /// Offset of the packet in the buffer it was parsed from.
    public var offset: Int

    /// Parses the sender report described by `view` in `buffer`.
    ///
    /// Returns nil when the view is not a sender report or the packet is too short for the
    /// sender info and the report blocks its header announces.
    public init?(view: RTCPPacketView, in buffer: UnsafeRawBufferPointer) {
        let reportCount = Int(view.countOrFormat)
        guard view.packetType == RTCPPacketType.senderReport,
            view.fits(in: buffer, minimumLength: Self.blocksOffset + reportCount * RTCPReportBlock.wireLength)
        else { return nil }
        let base = view.offset
        self.ssrc = buffer.readUInt32(at: base + 4)
        self.ntpTimestamp = buffer.readUInt64(at: base + 8)
        self.rtpTimestamp = buffer.readUInt32(at: base + 16)
        self.packetCount = buffer.readUInt32(at: base + 20)
        self.octetCount = buffer.readUInt32(at: base + 24)
        self.reportCount = reportCount
        self.offset = base
    }

    /// The report block with index `index` (0 ..< `reportCount`), or nil when out of range.
    public func reportBlock(at index: Int, in buffer: UnsafeRawBufferPointer) -> RTCPReportBlock? {
        guard index >= 0, index < reportCount else { return nil }
        let blockOffset = offset + Self.blocksOffset + index * RTCPReportBlock.wireLength
        guard blockOffset + RTCPReportBlock.wireLength <= buffer.count else { return nil }
        return RTCPReportBlock(reading: buffer, at: blockOffset)
    }
}
