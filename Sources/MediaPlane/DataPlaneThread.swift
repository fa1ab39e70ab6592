import CSocketShims
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the data plane on a dedicated POSIX thread, apart from Swift concurrency's pool, so
/// media never waits behind control work, and joins it at shutdown.
final class DataPlaneThread: @unchecked Sendable {
    // Written once in start() and read once in join(), both from the owning MediaPlane under its lock.
    private var thread = pthread_t()
    private var started = false
    /// The kernel's id of the thread once it runs (0 before), as /proc/self/task lists it.
    let kernelThreadID = Atomic<Int32>(0)

    private final class Box {
        let name: String
        let owner: DataPlaneThread
        let body: () -> Void
        init(name: String, owner: DataPlaneThread, _ body: @escaping () -> Void) {
            self.name = name
            self.owner = owner
            self.body = body
        }
    }

    /// Starts `body` on a new thread named `name` (what top, ps and perf show).
    func start(name: String, _ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(name: name, owner: self, body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                pkr_set_thread_name(box.name)
                DataPlaneThread.adoptRelayPriority()
                box.owner.kernelThreadID.store(pkr_thread_id(), ordering: .releasing)
                box.body()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        started = true
        return true
    }

    /// Gives the calling thread the relay's own nice value, its main thread's. A new thread takes
    /// its creator's, and the data plane is started from Swift concurrency's pool, whose threads
    /// libdispatch sets to the value of their QoS class: without this a relay started under
    /// `nice -n -10` (or at a benchmark's priority) would forward at 0, sharing its core with every
    /// other process as an equal. Raising the priority above the creator's needs CAP_SYS_NICE or
    /// RLIMIT_NICE; where the kernel refuses, the thread keeps its creator's value.
    static func adoptRelayPriority() {
        errno = 0
        let relay = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        guard errno == 0 else { return }
        // PRIO_PROCESS with 0 is the calling thread alone on Linux.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, relay)
    }

    /// Whether the thread was started and not yet joined.
    var isStarted: Bool { started }

    func join() {
        guard started else { return }
        pthread_join(thread, nil)
        started = false
    }
}
