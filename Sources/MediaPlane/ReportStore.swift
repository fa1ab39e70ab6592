import Synchronization

/// Holds the newest ``MediaPlaneReport``, written by the data plane about once a second, and the
/// audio levels it publishes every 100 ms until the control plane takes them.
final class ReportStore: Sendable {
    private let latest = Mutex(MediaPlaneReport())

    func publish(_ report: MediaPlaneReport) { latest.withLock { $0 = report } }

    func read() -> MediaPlaneReport { latest.withLock { $0 } }

    /// The shard thread's CPU time, stored by the thread about once a second (a plain store,
    /// never a read-modify-write).
    private let threadCPU = Atomic<Int64>(0)

    func recordThreadCPU(microseconds: Int64) { threadCPU.store(microseconds, ordering: .relaxed) }

    var threadCPUMicroseconds: Int64 { threadCPU.load(ordering: .relaxed) }

    /// Audio levels folded since the control plane last took them (loudest level wins).
    private let levels = Mutex([UInt32: AudioLevelSample]())

    /// Folds a levels snapshot of the data plane into what the control plane has not taken yet.
    func fold(_ snapshot: [UInt32: AudioLevelSample]) {
        levels.withLock { pending in
            for (id, sample) in snapshot { pending[id] = pending[id].map { $0.merged(with: sample) } ?? sample }
        }
    }

    /// Everything folded since the last call, emptied.
    func takeLevels() -> [UInt32: AudioLevelSample] {
        levels.withLock { pending in
            defer { pending = [:] }
            return pending
        }
    }
}
