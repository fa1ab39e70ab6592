/// A parsed receiver report (RFC 3550 section 6.4.2). Report blocks stay in the buffer and
/// are read one at a time with `reportBlock(at:in:)`.
public struct RTCPReceiverReport: Sendable, Equatable {
    /// Bytes before the first report block: common header and SSRC.
    static let blocksOffset = 8

    /// The reporter's SSRC.
    public var ssrc: UInt32
    /// Number of report blocks in the packet.
    public var reportCount: Int
    /// Offset of the packet in the buffer it was parsed from.
    public var offset: Int

    /// Parses the receiver report described by `view` in `buffer`.
    ///
    /// Returns nil when the view is not a receiver report or the packet is too short for the
    /// report blocks its header announces.
    public init?(view: RTCPPacketView, in buffer: UnsafeRawBufferPointer) {
        let reportCount = Int(view.countOrFormat)
        guard view.packetType == RTCPPacketType.receiverReport,
            view.fits(in: buffer, minimumLength: Self.blocksOffset + reportCount * RTCPReportBlock.wireLength)
        else { return nil }
        self.ssrc = buffer.readUInt32(at: view.offset + 4)
        self.reportCount = reportCount
        self.offset = view.offset
    }

    /// The report block with index `index` (0 ..< `reportCount`), or nil when out of range.
    public func reportBlock(at index: Int, in buffer: UnsafeRawBufferPointer) -> RTCPReportBlock? {
        guard index >= 0, index < reportCount else { return nil }
        let blockOffset = offset + Self.blocksOffset + index * RTCPReportBlock.wireLength
        guard blockOffset + RTCPReportBlock.wireLength <= buffer.count else { return nil }
        return RTCPReportBlock(reading: buffer, at: blockOffset)
    }
}
