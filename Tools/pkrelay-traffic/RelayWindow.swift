import Synchronization
import TrafficCore

/// The relay's metrics at the start and end of the measured window (`--relay-metrics`).
final class RelayWindow: Sendable {
    private let state = Mutex<(start: RelayMetricsSample?, end: RelayMetricsSample?)>((nil, nil))

    func record(started: Bool, sample: RelayMetricsSample?) {
        state.withLock { if started { $0.start = sample } else { $0.end = sample } }
    }

    /// Both ends, when both could be read.
    var samples: (RelayMetricsSample, RelayMetricsSample)? {
        state.withLock { state in
            guard let start = state.start, let end = state.end else { return nil }
            return (start, end)
        }
    }
}
