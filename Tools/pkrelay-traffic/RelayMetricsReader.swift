import Foundation
import TrafficCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a relay's figures from its admin listener's `/metrics`: packet counters for
/// pk-cluster's per-node load, and CPU, packets and drops for `--relay-metrics`.
enum RelayMetricsReader {
    /// The sample at `metricsURL` (the full URL, e.g. `http://127.0.0.1:7711/metrics`), or nil when
    /// it cannot be read or lacks the CPU and packet counters.
    static func sample(metricsURL: String) async -> RelayMetricsSample? {
        guard let url = URL(string: metricsURL), let (data, _) = try? await URLSession.shared.data(from: url),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return RelayMetricsSample(prometheusText: text)
    }

    /// `pkrelay_packets_in_total` and `pkrelay_packets_out_total` at `adminURL` (e.g.
    /// `http://127.0.0.1:7711`), or nil when the relay cannot be read.
    static func packetCounters(adminURL: String) async -> (packetsIn: UInt64, packetsOut: UInt64)? {
        guard let url = URL(string: adminURL.hasSuffix("/") ? adminURL + "metrics" : adminURL + "/metrics"),
            let (data, _) = try? await URLSession.shared.data(from: url), let text = String(data: data, encoding: .utf8)
        else { return nil }
        func value(_ name: String) -> UInt64? {
            for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
                return line.split(separator: " ").last.flatMap { Double($0) }.map { UInt64($0) }
            }
            return nil
        }
        guard let packetsIn = value("pkrelay_packets_in_total"), let packetsOut = value("pkrelay_packets_out_total") else { return nil }
        return (packetsIn, packetsOut)
    }
}
