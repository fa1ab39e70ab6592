/// What the data plane sent one subscriber track, and what the subscriber reported back.
public struct SinkReport: Sendable, Hashable {
    public var packets: UInt64 = 0
    public var bytes: UInt64 = 0
    public var retransmissions: UInt64 = 0
    /// Sequence numbers the subscriber NACKed.
    public var nacksReceived: UInt64 = 0
    /// Packets for this subscriber the relay dropped (stale sequence, protect failure).
    public var drops: UInt64 = 0
    /// From the subscriber's receiver reports.
    public var fractionLost: Double = 0
    public var cumulativeLost: Int32 = 0
    public var jitter: UInt32 = 0
    public var roundTripTimeMs: Double?
    public var bound: Bool = false
    /// Unix milliseconds when the first keyframe after the latest bind was sent to the subscriber.
    public var keyframeDeliveredAtMs: Int64?
    public init() {}
}
