import TrafficCore

extension EngineSnapshot {
    /// Adds another media thread's figures (counts summed, histograms added).
    mutating func add(_ other: EngineSnapshot) {
        totals.add(other.totals)
        sockets += other.sockets
        streams += other.streams
        latency.add(other.latency)
        latencyFromSchedule.add(other.latencyFromSchedule)
        lateness.add(other.lateness)
        setup.add(other.setup)
        setupTimedOut += other.setupTimedOut
    }
}
