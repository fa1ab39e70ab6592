import Synchronization

/// The meeting point of an operation and its deadline in ``withTimeout(_:_:operation:)``:
/// whichever settles first resumes the waiting caller, exactly once.
///
/// The caller waits on a continuation rather than on the operation's task, so that an operation
/// that ignores cancellation (awaiting another task's value, say) cannot hold the caller past its
/// deadline.
final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var settled = false
    }

    private let state = Mutex(State())

    /// Hands over the waiting caller; resumes it at once when the race is already settled.
    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let outcome = state.outcome {
                state.outcome = nil
                return outcome
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Settles the race with `outcome`; false when it was already settled, and then nothing happens.
    @discardableResult
    func settle(_ outcome: Result<T, any Error>) -> Bool {
        let waiting: CheckedContinuation<T, any Error>?? = state.withLock { state in
            guard !state.settled else { return .none }
            state.settled = true
            if let continuation = state.continuation {
                state.continuation = nil
                return .some(continuation)
            }
            state.outcome = outcome
            return .some(nil)
        }
        switch waiting {
        case .none: return false
        case .some(let continuation):
            continuation?.resume(with: outcome)
            return true
        }
    }
}
