import CSocketShims
import Foundation
import Synchronization
import TrafficCore

extension ScenarioRunner {
    /// The process's and every media thread's CPU time now (the threads' as of their last
    /// publication, at most 100 ms old).
    func cpuSample() -> CPUSample {
        CPUSample(
            atMicroseconds: MonotonicClock.microseconds(), processMicroseconds: pkr_process_cpu_us(),
            threadMicroseconds: engines.map { $0.snapshot().threadCPUMicroseconds })
    }

    /// Prints the live line once a second, from every media thread's figures, until cancelled.
    func startLiveLine() -> Task<Void, Never> {
        guard live else { return Task {} }
        return Task {
            var monitor = GeneratorLoadMonitor(rule: rule, host: host, cores: Int(pkr_available_cpus()))
            monitor.start(cpuSample())
            let begin = MonotonicClock.microseconds()
            var previous = EngineSnapshot()
            var previousAt = begin
            let label = part.count > 1 ? "part \(part)" : nil
            while !Task.isCancelled {
                // A quarter second after each second ends, every engine has published that second.
                let now = MonotonicClock.microseconds()
                let wake = (now / 1_000_000 + 1) * 1_000_000 + 250_000
                try? await Task.sleep(for: .microseconds(wake - now))
                guard !Task.isCancelled else { return }
                let second = MonotonicClock.microseconds() / 1_000_000 - 1
                var total = EngineSnapshot()
                var latency = LatencyRecorder()
                var lateness = LatencyRecorder()
                var clients = 0
                for engine in engines {
                    let snapshot = engine.snapshot()
                    total.add(snapshot)
                    clients += engine.clients.load(ordering: .relaxed)
                    if snapshot.interval.second == second {
                        latency.add(snapshot.interval.latency)
                        lateness.add(snapshot.interval.lateness)
                    }
                }
                let at = MonotonicClock.microseconds()
                let load = monitor.interval(cpuSample(), lateness: lateness)
                // The measured period starts from zero: a counter below the last reading restarted.
                func delta(_ current: UInt64, _ before: UInt64) -> UInt64 { current >= before ? current - before : current }
                var sample = LiveSample(
                    elapsedSeconds: Double(at - begin) / 1e6, clients: clients, streams: total.streams,
                    packetsIn: delta(total.totals.received, previous.totals.received), packetsOut: delta(total.totals.sent, previous.totals.sent),
                    bytesIn: delta(total.totals.bytesReceived, previous.totals.bytesReceived),
                    bytesOut: delta(total.totals.bytesSent, previous.totals.bytesSent),
                    expected: delta(total.totals.expected, previous.totals.expected), lost: delta(total.totals.lost, previous.totals.lost),
                    latency: latency.summary, errors: recorder.errorCount, intervalSeconds: Double(at - previousAt) / 1e6)
                sample.toolShare = load.busiestThreadShare
                sample.toolBound = load.toolBound
                sample.label = label
                print(sample.line)
                // Several generators may share the terminal, or a pipe that would hold the line back.
                fflush(nil)
                previous = total
                previousAt = at
            }
        }
    }
}
