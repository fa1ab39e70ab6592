/// The relay's side of a measured window, from its `/metrics` at the window's start and end:
/// what its cores carried and what it dropped.
public struct RelayLoad: Sendable, Codable, Hashable {
    /// The metrics URL read.
    public var metricsURL: String
    public var cores: Int
    /// CPU seconds the relay process used over the window.
    public var cpuSeconds: Double
    /// ``cpuSeconds`` over the window's length times ``cores``: 1 is every core it may use, busy.
    public var coreShare: Double
    /// Each media thread's CPU over the window's length, by thread.
    public var mediaThreadShares: [String: Double]
    public var busiestMediaThreadShare: Double
    /// The relay's own packet rates over the window.
    public var packetsPerSecondIn: Double
    public var packetsPerSecondOut: Double
    /// Packets the relay sent per second of its CPU: what one busy core carries.
    public var packetsOutPerCoreSecond: Double
    /// Relay CPU per packet it received or sent, in microseconds.
    public var cpuMicrosecondsPerPacket: Double
    /// Packets dropped over the window, by reason (reasons with none are left out).
    public var drops: [String: UInt64]
    /// True when the relay was saturated: its cores at ``RelayLoad/boundShare`` or more, or one
    /// media thread at that share of a core.
    public var relayBound: Bool

    /// The share of its cores (or of a core, for a media thread) from which the relay counts as saturated.
    public static let boundShare = 0.9

    public init(metricsURL: String, start: RelayMetricsSample, end: RelayMetricsSample, seconds: Double) {
        self.metricsURL = metricsURL
        cores = end.cores
        cpuSeconds = max(0, end.processCPUSeconds - start.processCPUSeconds)
        let window = max(seconds, 0.001)
        coreShare = cpuSeconds / window / Double(max(1, cores))
        var shares: [String: Double] = [:]
        for (thread, total) in end.mediaThreadCPUSeconds {
            shares[thread] = max(0, total - (start.mediaThreadCPUSeconds[thread] ?? 0)) / window
        }
        mediaThreadShares = shares
        busiestMediaThreadShare = shares.values.max() ?? 0
        // A relay restarted within the window counts from zero again: no negative rates.
        let packetsIn = end.packetsIn >= start.packetsIn ? end.packetsIn - start.packetsIn : 0
        let packetsOut = end.packetsOut >= start.packetsOut ? end.packetsOut - start.packetsOut : 0
        packetsPerSecondIn = Double(packetsIn) / window
        packetsPerSecondOut = Double(packetsOut) / window
        packetsOutPerCoreSecond = cpuSeconds > 0 ? Double(packetsOut) / cpuSeconds : 0
        let packets = packetsIn &+ packetsOut
        cpuMicrosecondsPerPacket = packets > 0 ? cpuSeconds * 1e6 / Double(packets) : 0
        var drops: [String: UInt64] = [:]
        for (reason, count) in end.drops {
            let before = start.drops[reason] ?? 0
            if count > before { drops[reason] = count - before }
        }
        self.drops = drops
        relayBound = coreShare >= Self.boundShare || busiestMediaThreadShare >= Self.boundShare
    }
}
