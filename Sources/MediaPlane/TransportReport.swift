/// Traffic of one transport.
public struct TransportReport: Sendable, Hashable {
    public var packetsIn: UInt64 = 0
    public var bytesIn: UInt64 = 0
    public var packetsOut: UInt64 = 0
    public var bytesOut: UInt64 = 0
    /// The client's address once connected or latched.
    public var remote: String?
    /// How the client reaches the transport, with `remote`: `udp`, or `tcp` for a WebRTC client
    /// on ICE-TCP.
    public var remoteProtocol: String?
    /// The client address's family, with `remote`: `ipv4`, or `ipv6` for a WebRTC client on
    /// the IPv6 WebRTC ports.
    public var remoteFamily: String?
    /// The estimate of the subscriber's downlink, once the transport carries a sink.
    public var bandwidthEstimate: BandwidthEstimateReport?
    /// Bits per second sent over the data plane's last report window (about a second).
    public var sendBitrateBps: Int = 0
    public init() {}
}
