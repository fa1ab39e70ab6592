/// The sequence number and timestamp a subscriber sees for one forwarded RTP packet.
public struct RewrittenPacketNumbers: Sendable, Hashable {
    /// The sequence number to write into the outgoing RTP header.
    public var sequenceNumber: UInt16
    /// The timestamp to write into the outgoing RTP header.
    public var timestamp: UInt32
    /// The sender restarted its numbering (see ``TrackRewriter``) and this packet resumed the
    /// stream: what follows needs a keyframe the subscriber's decoder can start from.
    public var resynchronized: Bool

    /// Creates a pair of outgoing packet numbers.
    @inlinable
    public init(sequenceNumber: UInt16, timestamp: UInt32, resynchronized: Bool = false) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.resynchronized = resynchronized
    }
}
