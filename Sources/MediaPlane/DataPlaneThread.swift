#if canImport(Glibc)
import Glibc
#endif

/// Starts the data plane on a dedicated POSIX thread, apart from Swift concurrency's pool, so
/// media never waits behind control work, and joins it at shutdown.
final class DataPlaneThread: @unchecked Sendable {
    // Written once in start() and read once in join(), both from the owning MediaPlane under its lock.
    private var thread = pthread_t()
    private var started = false

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
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

    func join() {
        guard started else { return }
        pthread_join(thread, nil)
        started = false
    }
}
