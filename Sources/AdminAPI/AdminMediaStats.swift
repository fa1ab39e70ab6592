/// The data plane's figures, from its once-a-second snapshot. OpenAPI schema `MediaStats`.
public struct AdminMediaStats: Sendable, Codable, Hashable {
    /// Transports the data plane holds.
    public var transports: Int
    /// Published tracks the data plane receives.
    public var sources: Int
    /// Subscribed tracks sent (one per track and subscriber).
    public var sinks: Int
    public var packetsIn: Int
    public var bytesIn: Int
    public var packetsOut: Int
    public var bytesOut: Int
    /// Packets dropped, by reason (the labels of pkrelay_dropped_packets_total).
    public var dropped: [String: Int]

    /// Creates the value from its fields.
    public init(transports: Int, sources: Int, sinks: Int, packetsIn: Int, bytesIn: Int, packetsOut: Int, bytesOut: Int, dropped: [String: Int]) {
        self.transports = transports
        self.sources = sources
        self.sinks = sinks
        self.packetsIn = packetsIn
        self.bytesIn = bytesIn
        self.packetsOut = packetsOut
        self.bytesOut = bytesOut
        self.dropped = dropped
    }
}
