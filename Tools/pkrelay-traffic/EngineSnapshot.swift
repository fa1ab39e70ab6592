import TrafficCore

/// The media engine's figures at one moment.
struct EngineSnapshot: Sendable {
    var totals = PacketTotals()
    var sockets = 0
    var streams = 0
    var latency = LatencyRecorder()
    var setup = LatencyRecorder()
    var setupTimedOut: UInt64 = 0
}
