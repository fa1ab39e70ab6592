import RTPWire

/// One packet of a compound RTCP packet a ``MediaEndpoint`` received.
public struct ReceivedRTCPMessage: Sendable, Hashable {
    /// The RTCP packet type (200 SR, 201 RR, 205 RTPFB, 206 PSFB, ...).
    public var packetType: UInt8
    /// The 5-bit count or feedback format field.
    public var format: UInt8
    /// The first SSRC of the packet: the sender's.
    public var senderSSRC: UInt32
    /// For feedback packets, the media source the feedback is about.
    public var mediaSSRC: UInt32?
    /// For generic NACKs, the sequence numbers reported lost.
    public var nackedSequenceNumbers: [UInt16]
    /// When it arrived.
    public var receivedAt: ContinuousClock.Instant

    /// Creates a record.
    public init(packetType: UInt8, format: UInt8, senderSSRC: UInt32, mediaSSRC: UInt32?, nackedSequenceNumbers: [UInt16], receivedAt: ContinuousClock.Instant)
    {
        self.packetType = packetType
        self.format = format
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.nackedSequenceNumbers = nackedSequenceNumbers
        self.receivedAt = receivedAt
    }

    /// Whether this is a picture loss indication.
    public var isPictureLossIndication: Bool {
        packetType == RTCPPacketType.payloadFeedback && format == RTCPFeedbackFormat.pictureLossIndication
    }

    /// Whether this is a generic NACK.
    public var isGenericNACK: Bool {
        packetType == RTCPPacketType.transportFeedback && format == RTCPFeedbackFormat.genericNACK
    }

    /// Whether this is a sender report.
    public var isSenderReport: Bool { packetType == RTCPPacketType.senderReport }
}
