/// An RTP packet a ``MediaEndpoint`` received and (for SRTP) authenticated and decrypted.
public struct ReceivedRTPPacket: Sendable, Hashable {
    public var ssrc: UInt32
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var marker: Bool
    public var payloadType: UInt8
    /// The payload, padding removed.
    public var payload: [UInt8]
    /// True when the packet repeats, byte for byte, an SRTP packet received before (a
    /// retransmission answering a NACK). libsrtp's replay protection refuses such a packet, so
    /// it is recognised by comparing it with the authenticated original.
    public var isRetransmission: Bool
    /// When the packet arrived.
    public var receivedAt: ContinuousClock.Instant
    /// The RTP header as it arrived, header extensions included (a retransmission, which repeats
    /// its original byte for byte, carries the original's).
    public var header: [UInt8]

    /// Creates a record.
    public init(
        ssrc: UInt32, sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, payload: [UInt8], isRetransmission: Bool,
        receivedAt: ContinuousClock.Instant, header: [UInt8] = []
    ) {
        self.header = header
        self.ssrc = ssrc
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.marker = marker
        self.payloadType = payloadType
        self.payload = payload
        self.isRetransmission = isRetransmission
        self.receivedAt = receivedAt
    }
}
