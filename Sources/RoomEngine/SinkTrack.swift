public import Protocol

/// One track the relay sends one subscriber, with the subscriber's own SSRC. A sink outlives the
/// publications it is bound to, so its sequence numbers stay continuous across a republish.
public struct SinkTrack: Sendable, Hashable {
    /// Relay-wide id of this sink.
    public var id: UInt32
    public var transportId: Int
    public var outputSSRC: UInt32
    public var kind: TrackKind
    public var clockRate: Int
    /// The sink's retransmission (RFC 4588) stream, on an SRTP transport that stamps
    /// transport-wide numbers (a WebRTC transport's is in its negotiation): its SSRC and payload
    /// type, fixed for the sink's life.
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: UInt8?

    public init(id: UInt32, transportId: Int, outputSSRC: UInt32, kind: TrackKind, clockRate: Int) {
        self.id = id
        self.transportId = transportId
        self.outputSSRC = outputSSRC
        self.kind = kind
        self.clockRate = clockRate
    }
}
