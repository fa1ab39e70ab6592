/// Runs `operation`, throwing ``TimeoutError`` if it has not finished within `duration`.
///
/// The operation is cancelled when the time runs out; an operation that ignores cancellation
/// keeps running in the background, but the caller is released at the deadline either way.
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
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: duration)
            throw TimeoutError(duration: duration, what: what)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimeoutError(duration: duration, what: what) }
        return first
    }
}
