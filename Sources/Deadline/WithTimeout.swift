/// Runs `operation`, throwing ``TimeoutError`` if it has not finished within `duration`.
///
/// The caller is released at the deadline whatever the operation does: it is cancelled then, and
/// one that ignores cancellation finishes in the background with its result discarded. (A task
/// group would not do: leaving its scope waits for every child, so an operation that ignores
/// cancellation would hold the caller forever.) Cancelling the caller cancels the operation and
/// throws `CancellationError` at once.
///
/// - Parameters:
///   - duration: The time allowed.
///   - what: A description of the awaited result, used in the error.
///   - operation: The work to bound.
public func withTimeout<T: Sendable>(
    _ duration: Duration,
    _ what: String = "an operation",
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeoutRace<T>()
    let work = Task {
        do {
            race.settle(.success(try await operation()))
        } catch {
            race.settle(.failure(error))
        }
    }
    let deadline = Task {
        guard (try? await Task.sleep(for: duration)) != nil else { return }
        if race.settle(.failure(TimeoutError(duration: duration, what: what))) { work.cancel() }
    }
    defer { deadline.cancel() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { race.wait($0) }
    } onCancel: {
        if race.settle(.failure(CancellationError())) { work.cancel() }
    }
}
