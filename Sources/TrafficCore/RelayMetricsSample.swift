/// The relay figures the traffic tool reads from its `/metrics` at the start and end of a window.
public struct RelayMetricsSample: Sendable, Hashable {
    /// `process_cpu_seconds_total`.
    public var processCPUSeconds: Double
    /// `pkrelay_cpu_cores`: the cores the relay may run on.
    public var cores: Int
    /// `pkrelay_media_thread_cpu_seconds_total` by thread label.
    public var mediaThreadCPUSeconds: [String: Double]
    public var packetsIn: UInt64
    public var packetsOut: UInt64
    /// `pkrelay_dropped_packets_total` by reason.
    public var drops: [String: UInt64]

    public init(processCPUSeconds: Double, cores: Int, mediaThreadCPUSeconds: [String: Double], packetsIn: UInt64, packetsOut: UInt64, drops: [String: UInt64])
    {
        self.processCPUSeconds = processCPUSeconds
        self.cores = cores
        self.mediaThreadCPUSeconds = mediaThreadCPUSeconds
        self.packetsIn = packetsIn
        self.packetsOut = packetsOut
        self.drops = drops
    }

    /// Reads the sample from Prometheus text; nil when the CPU or packet counters are missing
    /// (a relay too old to export them).
    public init?(prometheusText text: String) {
        var cpu: Double?
        var cores = 1
        var threads: [String: Double] = [:]
        var packetsIn: UInt64?
        var packetsOut: UInt64?
        var drops: [String: UInt64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]), value.isFinite, value >= 0 else { continue }
            let series = line[..<space]
            let name = series.prefix { $0 != "{" }
            let label = Self.firstLabelValue(series)
            switch name {
            case "process_cpu_seconds_total": cpu = value
            case "pkrelay_cpu_cores": cores = max(1, Int(value))
            case "pkrelay_media_thread_cpu_seconds_total": if let label { threads[label] = value }
            case "pkrelay_packets_in_total": packetsIn = UInt64(min(value, 1.8e19))
            case "pkrelay_packets_out_total": packetsOut = UInt64(min(value, 1.8e19))
            case "pkrelay_dropped_packets_total": if let label { drops[label] = UInt64(min(value, 1.8e19)) }
            default: break
            }
        }
        guard let cpu, let packetsIn, let packetsOut else { return nil }
        self.init(processCPUSeconds: cpu, cores: cores, mediaThreadCPUSeconds: threads, packetsIn: packetsIn, packetsOut: packetsOut, drops: drops)
    }

    /// The value of a series' first label (`name{label="value"}`), if it has one.
    static func firstLabelValue(_ series: Substring) -> String? {
        guard let open = series.firstIndex(of: "\"") else { return nil }
        let rest = series[series.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }
}
