import Cluster
import Synchronization

/// The notices a listener heard, shared between the listening task and the test.
final class NoticeLog: Sendable {
    private let notices = Mutex<[ClusterNotice]>([])

    func append(_ notice: ClusterNotice) { notices.withLock { $0.append(notice) } }

    var all: [ClusterNotice] { notices.withLock { $0 } }
}
