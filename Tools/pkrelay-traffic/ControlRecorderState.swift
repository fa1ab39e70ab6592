import TrafficCore

/// The figures a ``ControlRecorder`` guards.
struct ControlRecorderState {
    var latency: [String: LatencyRecorder] = [:]
    var errors: [String: UInt64] = [:]
    var errorCount: UInt64 = 0
}
