/// A parsed RTPFB or PSFB feedback packet (RFC 4585 section 6.1): the common feedback
/// header plus where its feedback control information (FCI) lies.
///
/// Helpers read the FCI of generic NACK and FIR messages; for other formats use
/// `fciOffset` and `fciLength` directly.
public struct RTCPFeedback: Sendable, Equatable {
    /// Bytes before the FCI: common header, sender SSRC and media SSRC.
    static let fciStart = 12
    /// Bytes one generic NACK entry occupies.
    static let nackEntryLength = 4
    /// Bytes one FIR entry occupies.
    static let firEntryLength = 8

    /// `RTCPPacketType.transportFeedback` or `RTCPPacketType.payloadFeedback`.
    public var packetType: UInt8
    /// The feedback message type (see `RTCPFeedbackFormat`).
    public var format: UInt8
    /// SSRC of the endpoint sending the feedback.
    public var senderSSRC: UInt32
    /// SSRC of the media source the feedback is about (0 for FIR, whose FCI names it).
    public var mediaSSRC: UInt32
    /// Offset of the FCI in the buffer the packet was parsed from.
    public var fciOffset: Int
    /// Bytes of FCI, padding excluded.
    public var fciLength: Int

    /// Parses the feedback packet described by `view` in `buffer`; nil when it is not an
    /// RTPFB/PSFB packet or shorter than the 12-byte feedback header.
    public init?(view: RTCPPacketView, in buffer: UnsafeRawBufferPointer) {
        guard
            view.packetType == RTCPPacketType.transportFeedback
                || view.packetType == RTCPPacketType.payloadFeedback,
            view.fits(in: buffer, minimumLength: Self.fciStart)
        else { return nil }
        self.packetType = view.packetType
        self.format = view.countOrFormat
        self.senderSSRC = buffer.readUInt32(at: view.offset + 4)
        self.mediaSSRC = buffer.readUInt32(at: view.offset + 8)
        self.fciOffset = view.offset + Self.fciStart
        self.fciLength = view.contentLength - Self.fciStart
    }

    /// Whether this is a generic NACK.
    public var isGenericNACK: Bool {
        packetType == RTCPPacketType.transportFeedback && format == RTCPFeedbackFormat.genericNACK
    }

    /// Whether this is a picture loss indication.
    public var isPictureLossIndication: Bool {
        packetType == RTCPPacketType.payloadFeedback && format == RTCPFeedbackFormat.pictureLossIndication
    }

    /// Whether this is a full intra request.
    public var isFullIntraRequest: Bool {
        packetType == RTCPPacketType.payloadFeedback && format == RTCPFeedbackFormat.fullIntraRequest
    }

    /// Number of generic NACK entries in the FCI (meaningful for generic NACK only).
    public var nackEntryCount: Int { fciLength / Self.nackEntryLength }

    /// The generic NACK entry with index `index` (0 ..< `nackEntryCount`), or nil when out of range.
    public func nackEntry(at index: Int, in buffer: UnsafeRawBufferPointer) -> RTCPNackEntry? {
        guard index >= 0, index < nackEntryCount else { return nil }
        let entryOffset = fciOffset + index * Self.nackEntryLength
        guard entryOffset + Self.nackEntryLength <= buffer.count else { return nil }
        return RTCPNackEntry(
            packetID: buffer.readUInt16(at: entryOffset),
            lostBitmask: buffer.readUInt16(at: entryOffset + 2)
        )
    }

    /// Number of FIR entries in the FCI (meaningful for FIR only).
    public var firEntryCount: Int { fciLength / Self.firEntryLength }

    /// The FIR entry with index `index` (0 ..< `firEntryCount`): the SSRC asked to send a key
    /// frame and the command sequence number; nil when out of range.
    public func firEntry(at index: Int, in buffer: UnsafeRawBufferPointer) -> (ssrc: UInt32, sequenceNumber: UInt8)? {
        guard index >= 0, index < firEntryCount else { return nil }
        let entryOffset = fciOffset + index * Self.firEntryLength
        guard entryOffset + Self.firEntryLength <= buffer.count else { return nil }
        return (ssrc: buffer.readUInt32(at: entryOffset), sequenceNumber: buffer[entryOffset + 4])
    }
}
