import TrafficCore

/// The media engine's figures at one moment.
struct EngineSnapshot: Sendable {
    var totals = PacketTotals()
    var sockets = 0
    var streams = 0
    /// One-way latency from the actual and from the scheduled send time.
    var latency = LatencyRecorder()
    var latencyFromSchedule = LatencyRecorder()
    /// How late each packet left against its schedule.
    var lateness = LatencyRecorder()
    var setup = LatencyRecorder()
    var setupTimedOut: UInt64 = 0
    /// The engine thread's CPU time so far.
    var threadCPUMicroseconds: Int64 = 0
    /// The last whole second, for the live line.
    var interval = EngineInterval()
}
