/// Traffic of one of the caller's transports (`getStats`).
public struct TransportStats: Sendable, Codable, Hashable {
    public var transportId: Int
    public var port: Int
    /// The client's address once connected or latched.
    public var remote: String?
    /// `udp`, or `tcp` for a WebRTC client on ICE-TCP; with `remote`.
    public var remoteProtocol: String?
    public var packetsIn: UInt64
    public var bytesIn: UInt64
    public var packetsOut: UInt64
    public var bytesOut: UInt64
    /// The relay's estimate of the transport's downlink, once it carries a subscription.
    public var bandwidthEstimate: BandwidthEstimateStats?

    public init(
        transportId: Int, port: Int, remote: String?, packetsIn: UInt64, bytesIn: UInt64, packetsOut: UInt64, bytesOut: UInt64,
        bandwidthEstimate: BandwidthEstimateStats? = nil, remoteProtocol: String? = nil
    ) {
        self.remoteProtocol = remoteProtocol
        self.transportId = transportId
        self.port = port
        self.remote = remote
        self.packetsIn = packetsIn
        self.bytesIn = bytesIn
        self.packetsOut = packetsOut
        self.bytesOut = bytesOut
        self.bandwidthEstimate = bandwidthEstimate
    }
}
