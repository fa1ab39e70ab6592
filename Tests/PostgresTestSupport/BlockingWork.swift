import Foundation

/// Runs blocking work (a child process waited for, a pipe read to its end) on a thread of its
/// own. Swift's cooperative pool has one thread per core: two tests blocking two of them stall
/// every other test of the process, and the relays they run in-process, for as long as the
/// children take, which on a busy machine is long enough for their timers to fire.
public enum BlockingWork {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "pkrelay-test-blocking"
            thread.start()
        }
    }
}
