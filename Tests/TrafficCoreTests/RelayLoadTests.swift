import Testing

@testable import TrafficCore

/// The relay's side of a window, read from its /metrics text.
struct RelayLoadTests {
    static func text(cpu: Double, threads: [Double], packetsIn: Int, packetsOut: Int, dropsKeyframe: Int, cores: Int = 1) -> String {
        var lines = [
            "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.",
            "# TYPE process_cpu_seconds_total counter",
            "process_cpu_seconds_total \(cpu)",
            "pkrelay_cpu_cores \(cores)",
            "pkrelay_packets_in_total \(packetsIn)",
            "pkrelay_packets_out_total \(packetsOut)",
            "pkrelay_dropped_packets_total{reason=\"waiting_for_keyframe\"} \(dropsKeyframe)",
            "pkrelay_dropped_packets_total{reason=\"srtp_replayed\"} 3",
            "pkrelay_packets_in_totalx 99",
        ]
        for (index, seconds) in threads.enumerated() { lines.append("pkrelay_media_thread_cpu_seconds_total{thread=\"\(index)\"} \(seconds)") }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func parsesTheSeriesItNeeds() throws {
        let sample = try #require(
            RelayMetricsSample(prometheusText: Self.text(cpu: 12.5, threads: [3, 4.25], packetsIn: 100, packetsOut: 1600, dropsKeyframe: 7, cores: 2)))
        #expect(sample.processCPUSeconds == 12.5)
        #expect(sample.cores == 2)
        #expect(sample.mediaThreadCPUSeconds == ["0": 3, "1": 4.25])
        #expect(sample.packetsIn == 100)
        #expect(sample.packetsOut == 1600)
        #expect(sample.drops == ["waiting_for_keyframe": 7, "srtp_replayed": 3])
    }

    @Test func aRelayWithoutCPUCountersIsNotRead() {
        #expect(RelayMetricsSample(prometheusText: "pkrelay_packets_in_total 1\npkrelay_packets_out_total 2\n") == nil)
        #expect(RelayMetricsSample(prometheusText: "garbage {{{ \n\n process_cpu_seconds_total NaN") == nil)
    }

    @Test(arguments: [
        // (CPU seconds used over 10 s on 1 core, busiest media thread seconds, saturated?)
        (9.5, 9.0, true),
        (7.0, 9.2, true),
        (7.0, 6.5, false),
    ])
    func theRelayIsSaturatedFromNineTenthsOfItsCores(cpu: Double, thread: Double, saturated: Bool) throws {
        let start = try #require(RelayMetricsSample(prometheusText: Self.text(cpu: 100, threads: [50], packetsIn: 1000, packetsOut: 10_000, dropsKeyframe: 5)))
        let end = try #require(
            RelayMetricsSample(prometheusText: Self.text(cpu: 100 + cpu, threads: [50 + thread], packetsIn: 101_000, packetsOut: 1_610_000, dropsKeyframe: 9)))
        let load = RelayLoad(metricsURL: "http://relay/metrics", start: start, end: end, seconds: 10)
        #expect(load.relayBound == saturated)
        #expect(abs(load.coreShare - cpu / 10) < 1e-9)
        #expect(abs(load.busiestMediaThreadShare - thread / 10) < 1e-9)
        #expect(load.packetsPerSecondIn == 10_000)
        #expect(load.packetsPerSecondOut == 160_000)
        #expect(abs(load.packetsOutPerCoreSecond - 1_600_000 / cpu) < 1e-6)
        #expect(load.drops == ["waiting_for_keyframe": 4])
    }

    @Test func aRestartedRelayGivesNoNegativeRates() throws {
        let start = try #require(RelayMetricsSample(prometheusText: Self.text(cpu: 100, threads: [50], packetsIn: 1000, packetsOut: 10_000, dropsKeyframe: 5)))
        let end = try #require(RelayMetricsSample(prometheusText: Self.text(cpu: 1, threads: [1], packetsIn: 10, packetsOut: 10, dropsKeyframe: 1)))
        let load = RelayLoad(metricsURL: "x", start: start, end: end, seconds: 10)
        #expect(load.packetsPerSecondIn == 0)
        #expect(load.cpuSeconds == 0)
        #expect(load.drops.isEmpty)
    }
}
