import TrafficCore

/// What one scenario run measured.
struct RunOutcome: Sendable {
    var snapshot: EngineSnapshot
    var clients: Int
    var measuredSeconds: Double
    var startedAt: String
    /// The generator's own load over the window.
    var generator: GeneratorLoad
    /// The relay's side of the window, with `--relay-metrics`.
    var relay: RelayLoad?
    var controlLatency: [String: LatencySummary] = [:]
    var errors: [String: UInt64] = [:]

    /// The outcome with the control figures of `recorder` attached.
    func withErrors(_ recorder: ControlRecorder) -> RunOutcome {
        var copy = self
        copy.controlLatency = recorder.latencySummaries
        copy.errors = recorder.errors
        return copy
    }
}
