import CSocketShims
import Synchronization

/// Carries commands from the control plane to the data-plane thread: appended under a lock by
/// the control plane, taken all at once by the data plane between batches, and signalled through
/// an eventfd the data plane waits on. The lock is taken once per batch, never per packet.
final class MediaPlaneMailbox: Sendable {
    private let queue = Mutex<[MediaCommand]>([])
    let eventFD: Int32

    init(eventFD: Int32) { self.eventFD = eventFD }

    func post(_ command: MediaCommand) {
        queue.withLock { $0.append(command) }
        pkr_eventfd_signal(eventFD)
    }

    func post(_ commands: [MediaCommand]) {
        guard !commands.isEmpty else { return }
        queue.withLock { $0.append(contentsOf: commands) }
        pkr_eventfd_signal(eventFD)
    }

    /// Takes every queued command, leaving `spare` (an emptied array with capacity) in its place.
    func take(replacingWith spare: inout [MediaCommand]) {
        queue.withLock { swap(&$0, &spare) }
    }
}
