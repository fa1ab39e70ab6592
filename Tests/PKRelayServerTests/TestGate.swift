import Synchronization

/// A gate a test opens and closes: ``pass()`` returns at once while it is open and waits while
/// it is closed (until it opens, or the waiting task is cancelled).
final class TestGate: Sendable {
    private struct State {
        var open: Bool
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state: Mutex<State>

    init(open: Bool = true) {
        state = Mutex(State(open: open))
    }

    var isOpen: Bool { state.withLock { $0.open } }

    /// How many are waiting at the gate now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    func close() { state.withLock { $0.open = false } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the gate is open (or the task is cancelled).
    func pass() async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let passes = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if passes { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
