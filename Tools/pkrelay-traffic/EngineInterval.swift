import TrafficCore

/// One whole second of an engine's latency and send lateness (seconds of the monotonic clock),
/// for the live line.
struct EngineInterval: Sendable {
    var second: Int64 = -1
    var latency = LatencyRecorder()
    var lateness = LatencyRecorder()
}
