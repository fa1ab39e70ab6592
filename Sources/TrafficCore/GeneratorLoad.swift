/// The traffic tool's own load over a measured window, and whether it was the bound.
public struct GeneratorLoad: Sendable, Codable, Hashable {
    /// The host the generator ran on, and the cores its process may run on (affinity).
    public var host: String
    public var cores: Int
    /// Media threads.
    public var threads: Int
    /// CPU seconds the process used over the window (every thread, user and system).
    public var processCPUSeconds: Double
    /// Process CPU over the window's length times ``cores``.
    public var processShare: Double
    /// Each media thread's CPU over the window's length (1 is a whole core).
    public var threadShares: [Double]
    public var busiestThreadShare: Double
    /// How late packets left against their schedule.
    public var sendLatenessMs: LatencySummary
    /// Process CPU per simulated packet (sent or received), in microseconds.
    public var cpuMicrosecondsPerPacket: Double
    /// True when the tool, not the relay, was what ran out (``reasons`` says why).
    public var toolBound: Bool
    public var reasons: [String]

    public init(
        host: String, cores: Int, threads: Int, processCPUSeconds: Double, processShare: Double, threadShares: [Double],
        sendLatenessMs: LatencySummary, cpuMicrosecondsPerPacket: Double, toolBound: Bool, reasons: [String]
    ) {
        self.host = host
        self.cores = cores
        self.threads = threads
        self.processCPUSeconds = processCPUSeconds
        self.processShare = processShare
        self.threadShares = threadShares
        self.busiestThreadShare = threadShares.max() ?? 0
        self.sendLatenessMs = sendLatenessMs
        self.cpuMicrosecondsPerPacket = cpuMicrosecondsPerPacket
        self.toolBound = toolBound
        self.reasons = reasons
    }
}
