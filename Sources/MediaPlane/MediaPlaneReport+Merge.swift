extension MediaPlaneReport {
    /// Adds another shard's report: counters summed, objects joined (each lives on one shard).
    mutating func merge(_ other: MediaPlaneReport) {
        generatedAtMs = max(generatedAtMs, other.generatedAtMs)
        counters.merge(other.counters)
        sources.merge(other.sources) { mine, _ in mine }
        sinks.merge(other.sinks) { mine, _ in mine }
        transports.merge(other.transports) { mine, _ in mine }
    }
}
