import Synchronization

/// The time the fuzzed relay core reads: moved only by the script, so that an input replays
/// the same way every time.
final class ScriptedClock: Sendable {
    private let milliseconds: Mutex<Int64>

    init(startMs: Int64) {
        milliseconds = Mutex(startMs)
    }

    var nowMs: Int64 { milliseconds.withLock { $0 } }

    func advance(byMs delta: Int64) {
        milliseconds.withLock { now in
            let (sum, overflow) = now.addingReportingOverflow(delta)
            now = overflow ? .max : sum
        }
    }
}
