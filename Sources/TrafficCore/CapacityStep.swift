/// One load step of a capacity search and what it measured.
public struct CapacityStep: Sendable, Codable, Hashable {
    /// The load: rooms for pk-showroom and churn, subscribers for fanout.
    public var load: Int
    /// Streams received by simulated clients at this load.
    public var streams: Int
    /// Packets per second the relay delivered to simulated clients.
    public var packetsPerSecond: Double
    public var lossPercent: Double
    public var p99Ms: Double
    /// Whether the step stayed within the search's limits (and could be set up at all).
    public var passed: Bool
    /// Why the step failed, when it did.
    public var reason: String?
    /// The traffic tool was the bound at this step (never counted as the relay's capacity).
    public var toolBound: Bool
    /// The relay was saturated at this step; nil when its metrics were not read.
    public var relayBound: Bool?
    /// The relay's busiest share at this step (its cores, or one media thread, whichever is
    /// higher; nil without its metrics), and the tool's busiest media thread.
    public var relayShare: Double?
    public var toolShare: Double?

    public init(
        load: Int, streams: Int, packetsPerSecond: Double, lossPercent: Double, p99Ms: Double, passed: Bool, reason: String? = nil,
        toolBound: Bool = false, relayBound: Bool? = nil
    ) {
        self.toolBound = toolBound
        self.relayBound = relayBound
        self.load = load
        self.streams = streams
        self.packetsPerSecond = packetsPerSecond
        self.lossPercent = lossPercent
        self.p99Ms = p99Ms
        self.passed = passed
        self.reason = reason
    }
}
