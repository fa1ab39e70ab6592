/// The sequence number and timestamp a subscriber sees for one forwarded RTP packet.
public struct RewrittenPacketNumbers: Sendable, Hashable {
    /// The sequence number to write into the outgoing RTP header.
    public var sequenceNumber: UInt16
    /// The timestamp to write into the outgoing RTP header.
    public var timestamp: UInt32

    /// Creates a pair of outgoing packet numbers.
    public init(sequenceNumber: UInt16, timestamp: UInt32) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
    }
}
