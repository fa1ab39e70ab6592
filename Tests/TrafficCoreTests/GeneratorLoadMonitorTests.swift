import Testing

@testable import TrafficCore

/// Tool-bound detection from scripted CPU samples and send lateness: no real clock, no real load.
struct GeneratorLoadMonitorTests {
    /// A sample `seconds` into the window with the given CPU seconds used so far.
    func sample(_ seconds: Double, process: Double, threads: [Double]) -> CPUSample {
        CPUSample(
            atMicroseconds: 1_000_000_000 + Int64(seconds * 1e6), processMicroseconds: 5_000_000 + Int64(process * 1e6),
            threadMicroseconds: threads.map { 2_000_000 + Int64($0 * 1e6) })
    }

    func lateness(_ milliseconds: Double, count: Int = 1000) -> LatencyRecorder {
        var recorder = LatencyRecorder()
        for _ in 0..<count { recorder.record(milliseconds: milliseconds) }
        return recorder
    }

    @Test func aLightlyLoadedToolIsNotTheBound() {
        var monitor = GeneratorLoadMonitor(host: "gen-a", cores: 2)
        monitor.start(sample(0, process: 0, threads: [0, 0]))
        let load = monitor.window(until: sample(10, process: 6, threads: [3, 2.5]), lateness: lateness(1), packets: 600_000)
        #expect(!load.toolBound)
        #expect(load.reasons.isEmpty)
        #expect(abs(load.threadShares[0] - 0.3) < 1e-9)
        #expect(abs(load.busiestThreadShare - 0.3) < 1e-9)
        #expect(abs(load.processShare - 0.3) < 1e-9)
        #expect(abs(load.cpuMicrosecondsPerPacket - 10) < 1e-9)
        #expect(load.threads == 2)
        #expect(load.host == "gen-a")
    }

    @Test(arguments: [
        // (process CPU, thread CPU, lateness ms, expected reason fragment) over a 10 s window on 2 cores.
        (6.0, [9.5, 0.5], 1.0, "media thread"),
        (18.5, [8.0, 8.0], 1.0, "of its cores"),
        (4.0, [2.0, 2.0], 12.0, "late at p99"),
    ])
    func eachLimitMakesTheToolTheBound(process: Double, threads: [Double], latenessMs: Double, reason: String) {
        var monitor = GeneratorLoadMonitor(host: "gen-a", cores: 2)
        monitor.start(sample(0, process: 0, threads: [0, 0]))
        let load = monitor.window(until: sample(10, process: process, threads: threads), lateness: lateness(latenessMs), packets: 1)
        #expect(load.toolBound)
        #expect(load.reasons.count == 1)
        #expect(load.reasons.first?.contains(reason) == true, "\(load.reasons)")
    }

    @Test func theLatenessLimitIsTheOperators() {
        var monitor = GeneratorLoadMonitor(rule: ToolBoundRule(maxLatenessP99Ms: 20), host: "gen-a", cores: 1)
        monitor.start(sample(0, process: 0, threads: [0]))
        #expect(!monitor.window(until: sample(1, process: 0.1, threads: [0.1]), lateness: lateness(12), packets: 1).toolBound)
        #expect(monitor.window(until: sample(1, process: 0.1, threads: [0.1]), lateness: lateness(25), packets: 1).toolBound)
    }

    /// The live line judges each second on its own; the window judges the whole run.
    @Test func intervalsAreJudgedBetweenConsecutiveSamples() {
        var monitor = GeneratorLoadMonitor(host: "gen-a", cores: 1)
        monitor.start(sample(0, process: 0, threads: [0]))
        let quiet = monitor.interval(sample(1, process: 0.2, threads: [0.2]), lateness: lateness(1))
        #expect(!quiet.toolBound)
        let busy = monitor.interval(sample(2, process: 1.18, threads: [1.17]), lateness: lateness(1))
        #expect(busy.toolBound)
        #expect(abs(busy.busiestThreadShare - 0.97) < 1e-9)
        let calm = monitor.interval(sample(3, process: 1.4, threads: [1.37]), lateness: lateness(1))
        #expect(!calm.toolBound)
        // Over the three seconds: 1.37 s of 3 s.
        let whole = monitor.window(until: sample(3, process: 1.4, threads: [1.37]), lateness: lateness(1), packets: 0)
        #expect(!whole.toolBound)
        #expect(abs(whole.busiestThreadShare - 1.37 / 3) < 1e-9)
    }

    @Test func anEmptyWindowJudgesNothing() {
        var monitor = GeneratorLoadMonitor(host: "gen-a", cores: 1)
        let start = sample(0, process: 0, threads: [0])
        monitor.start(start)
        let load = monitor.window(until: start, lateness: lateness(100), packets: 0)
        #expect(!load.toolBound)
        #expect(load.threadShares == [0])
        #expect(load.cpuMicrosecondsPerPacket == 0)
    }
}
