/// The outcome of a capacity search, as written in reports.
public struct CapacityResult: Sendable, Codable, Hashable {
    public var maxLossPercent: Double
    public var maxP99Ms: Double
    public var steps: [CapacityStep]
    /// The last load that passed; nil when even the first step failed.
    public var lastPassing: CapacityStep?
    /// True when every step passed up to the search's limit (the real maximum is higher).
    public var reachedLimit: Bool
    /// What ended the search: only ``CapacityBound/relay`` makes ``lastPassing`` the relay's capacity.
    public var endedBy: CapacityBound

    public init(maxLossPercent: Double, maxP99Ms: Double, steps: [CapacityStep], lastPassing: CapacityStep?, reachedLimit: Bool, endedBy: CapacityBound) {
        self.endedBy = endedBy
        self.maxLossPercent = maxLossPercent
        self.maxP99Ms = maxP99Ms
        self.steps = steps
        self.lastPassing = lastPassing
        self.reachedLimit = reachedLimit
    }
}
