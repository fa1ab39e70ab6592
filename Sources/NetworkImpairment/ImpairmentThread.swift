#if canImport(Glibc)
    import Glibc
#endif

/// The impairment relay's POSIX thread: the relay runs without Swift concurrency, so a test's
/// busy executor never delays a datagram.
final class ImpairmentThread: @unchecked Sendable {
    // Written once in start() before the thread runs, read once in join().
    private var thread = pthread_t()
    private var started = false

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, box)
        guard result == 0 else {
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
