/// Packet and byte counts of a run, as the simulated clients saw them.
public struct PacketTotals: Sendable, Codable, Hashable {
    /// RTP packets and bytes (SRTP, as on the wire) the simulated publishers sent.
    public var sent: UInt64 = 0
    public var bytesSent: UInt64 = 0
    /// RTP packets and bytes the simulated subscribers received and could decrypt.
    public var received: UInt64 = 0
    public var bytesReceived: UInt64 = 0
    /// Packets expected by the subscribers from sequence numbers, and those that never came.
    public var expected: UInt64 = 0
    public var lost: UInt64 = 0
    public var duplicates: UInt64 = 0
    /// Packets that arrived after a higher sequence number (reordering or NACK answers).
    public var late: UInt64 = 0
    /// RTCP feedback sent by the subscribers.
    public var nacksSent: UInt64 = 0
    public var plisSent: UInt64 = 0
    /// Transport-wide congestion feedback (`--transport-cc`): sent by the subscribers, and
    /// received from the relay by the publishers.
    public var transportFeedbackSent: UInt64 = 0
    public var transportFeedbackReceived: UInt64 = 0
    /// Packets the subscribers received on retransmission (RFC 4588) streams: with
    /// `--transport-cc`, mostly the relay's probes of their downlinks.
    public var retransmissionsReceived: UInt64 = 0
    /// Keyframe requests (PLI/FIR) and NACKs the relay sent to the publishers.
    public var keyframeRequestsReceived: UInt64 = 0
    public var nacksReceived: UInt64 = 0
    /// Keyframes the publishers sent.
    public var keyframesSent: UInt64 = 0
    /// Datagrams that failed SRTP authentication or parsing.
    public var undecryptable: UInt64 = 0
    /// Packets whose payload lacked the tool's send timestamp (not latency-measured).
    public var unstamped: UInt64 = 0

    public init() {}

    /// Lost packets as a percentage of the expected ones.
    public var lossPercent: Double { expected == 0 ? 0 : Double(lost) * 100 / Double(expected) }
}
