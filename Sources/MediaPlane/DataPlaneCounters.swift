/// Relay-wide counters kept by the data-plane thread and copied into each report.
public struct DataPlaneCounters: Sendable, Hashable {
    public var packetsIn: UInt64 = 0
    public var bytesIn: UInt64 = 0
    public var packetsOut: UInt64 = 0
    public var bytesOut: UInt64 = 0
    public var rtcpIn: UInt64 = 0
    public var rtcpOut: UInt64 = 0
    public var keyframeRequestsReceived: UInt64 = 0
    public var keyframeRequestsSent: UInt64 = 0
    /// Sinks started from their source's last keyframe, replayed, instead of a new request.
    public var keyframeReplays: UInt64 = 0
    public var nacksReceived: UInt64 = 0
    public var retransmissionsSent: UInt64 = 0
    public var retransmissionsMissed: UInt64 = 0
    /// NACKs the relay sent publishers for packets that did not arrive.
    public var nacksSent: UInt64 = 0
    /// Packets of publishers' RFC 4588 retransmission streams.
    public var retransmissionsReceived: UInt64 = 0
    public var receiveBatches: UInt64 = 0
    public var sendBatches: UInt64 = 0
    /// `sendmmsg` calls made for media.
    public var sendCalls: UInt64 = 0
    /// Messages those calls handed to the kernel: one per datagram without segmentation
    /// offload, one per run of equal-size datagrams with it (``UDPOffload``).
    public var sendMessages: UInt64 = 0
    /// Segmented messages the kernel refused, which went out again datagram by datagram.
    public var segmentationFallbacks: UInt64 = 0
    /// Video packets padded to go on with their subscriber's run of equal-size datagrams, and
    /// the padding bytes they carried (`media.gsoPadding`).
    public var paddedPackets: UInt64 = 0
    public var paddingBytes: UInt64 = 0
    /// Messages read from media sockets: one per datagram, or with receive offload one per run
    /// of a sender's datagrams that the kernel coalesced (``UDPOffload``).
    public var receiveMessages: UInt64 = 0
    /// Transport-wide congestion feedback packets sent to publishers.
    public var transportFeedbackSent: UInt64 = 0
    /// Transport-wide congestion feedback packets received from subscribers the relay stamps.
    public var transportFeedbackReceived: UInt64 = 0
    /// Probe clusters started toward subscribers, and the packets they sent (RTX copies of a
    /// recent packet, or padding).
    public var probeClusters: UInt64 = 0
    public var probePackets: UInt64 = 0
    /// Datagrams a pacer kept back at least once (each time it did).
    public var pacedPackets: UInt64 = 0
    /// ICE-TCP connections accepted on the WebRTC ports, refused (past
    /// ``MediaPlaneConfiguration/webRTCTCPConnections``), and closed (by the client, failed, or
    /// unused: no passing check for 10 s, nothing for 30 s).
    public var streamConnectionsAccepted: UInt64 = 0
    public var streamConnectionsRefused: UInt64 = 0
    public var streamConnectionsClosed: UInt64 = 0
    /// Entries of the IPv6 peer tables freed because every entry was taken (checks from more
    /// IPv6 addresses than ``IPv6Peers/maximumCapacity`` on one shard, a flood among them).
    public var ipv6PeersReclaimed: UInt64 = 0
    /// Drops, indexed by ``DropReason/rawValue``.
    public var drops: [UInt64] = Array(repeating: 0, count: DropReason.allCases.count)

    public init() {}

    mutating func drop(_ reason: DropReason) { drops[reason.rawValue] &+= 1 }
    mutating func drop(_ reason: DropReason, count: UInt64) { drops[reason.rawValue] &+= count }

    /// The number of drops for one reason.
    public func drops(_ reason: DropReason) -> UInt64 { drops[reason.rawValue] }
}
