import Synchronization
import TrafficCore

/// Control-request latency per method and errors by code, shared by every simulated client
/// and the media engine.
final class ControlRecorder: Sendable {
    private let state = Mutex(ControlRecorderState())

    /// Records how long a request of `method` took to be answered.
    func recordLatency(method: String, microseconds: Int64) {
        state.withLock { $0.latency[method, default: LatencyRecorder()].record(microseconds: microseconds) }
    }

    /// Counts one error: a relay error code, or one of the tool's names.
    func recordError(_ code: String) {
        state.withLock {
            $0.errors[code, default: 0] += 1
            $0.errorCount += 1
        }
    }

    var errorCount: UInt64 { state.withLock { $0.errorCount } }

    var errors: [String: UInt64] { state.withLock { $0.errors } }

    var latencyHistograms: [String: HistogramData] {
        state.withLock { $0.latency.mapValues(\.data) }
    }

    var latencySummaries: [String: LatencySummary] {
        state.withLock { $0.latency.mapValues(\.summary) }
    }
}
