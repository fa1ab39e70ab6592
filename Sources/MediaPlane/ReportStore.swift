import Synchronization

/// Holds the newest ``MediaPlaneReport``; written by the data plane about once a second.
final class ReportStore: Sendable {
    private let latest = Mutex(MediaPlaneReport())

    func publish(_ report: MediaPlaneReport) { latest.withLock { $0 = report } }

    func read() -> MediaPlaneReport { latest.withLock { $0 } }
}
