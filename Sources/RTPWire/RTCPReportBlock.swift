/// One reception report block of a sender or receiver report (RFC 3550 section 6.4.1).
public struct RTCPReportBlock: Sendable, Equatable {
    /// Bytes one block occupies on the wire.
    public static let wireLength = 24
    /// Smallest value the 24-bit signed cumulative loss field can carry.
    public static let minimumCumulativeLost: Int32 = -0x80_0000
    /// Largest value the 24-bit signed cumulative loss field can carry.
    public static let maximumCumulativeLost: Int32 = 0x7F_FFFF

    /// The source this block reports on.
    public var ssrc: UInt32
    /// Fraction of packets lost since the previous report, in 1/256 units.
    public var fractionLost: UInt8
    /// Cumulative packets lost; negative when duplicates outnumber losses.
    public var cumulativeLost: Int32
    /// Highest sequence number received, extended with the wrap-around count in the top 16 bits.
    public var extendedHighestSequence: UInt32
    /// Interarrival jitter in timestamp units.
    public var jitter: UInt32
    /// Middle 32 bits of the NTP timestamp of the last sender report received (LSR).
    public var lastSenderReport: UInt32
    /// Delay since that sender report in 1/65536 seconds (DLSR).
    public var delaySinceLastSenderReport: UInt32

    /// Creates a block from known values.
    public init(
        ssrc: UInt32,
        fractionLost: UInt8,
        cumulativeLost: Int32,
        extendedHighestSequence: UInt32,
        jitter: UInt32,
        lastSenderReport: UInt32,
        delaySinceLastSenderReport: UInt32
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    /// Reads a block at `offset`; the caller has checked that 24 bytes are there.
    init(reading buffer: UnsafeRawBufferPointer, at offset: Int) {
        let lossWord = buffer.readUInt32(at: offset + 4)
        // Shift the 24-bit field to the top and back so that its sign bit extends.
        let cumulativeLost = Int32(bitPattern: lossWord << 8) >> 8
        self.init(
            ssrc: buffer.readUInt32(at: offset),
            fractionLost: UInt8(truncatingIfNeeded: lossWord >> 24),
            cumulativeLost: cumulativeLost,
            extendedHighestSequence: buffer.readUInt32(at: offset + 8),
            jitter: buffer.readUInt32(at: offset + 12),
            lastSenderReport: buffer.readUInt32(at: offset + 16),
            delaySinceLastSenderReport: buffer.readUInt32(at: offset + 20)
        )
    }

    /// Writes the block at `offset`; the caller has checked that 24 bytes are there.
    /// A cumulative loss outside the 24-bit range is clamped, as RFC 3550 asks.
    func write(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        let clamped = min(max(cumulativeLost, Self.minimumCumulativeLost), Self.maximumCumulativeLost)
        let lossWord = UInt32(fractionLost) << 24 | (UInt32(bitPattern: clamped) & 0xFF_FFFF)
        buffer.writeUInt32(ssrc, at: offset)
        buffer.writeUInt32(lossWord, at: offset + 4)
        buffer.writeUInt32(extendedHighestSequence, at: offset + 8)
        buffer.writeUInt32(jitter, at: offset + 12)
        buffer.writeUInt32(lastSenderReport, at: offset + 16)
        buffer.writeUInt32(delaySinceLastSenderReport, at: offset + 20)
    }
}
