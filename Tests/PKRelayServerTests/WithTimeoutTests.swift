import PKRelayClient
import Testing

/// `withTimeout` releases its caller at the deadline even when the operation ignores
/// cancellation: the tests' every bounded wait depends on it.
@Suite(.timeLimit(.minutes(1)))
struct WithTimeoutTests {
    /// An operation that only ends when `gate` finishes, whatever cancellation says.
    static func stubbornOperation(_ gate: AsyncStream<Void>) -> @Sendable () async throws -> Int {
        let holder = Task { for await _ in gate {} }
        return {
            // Awaiting another task's value does not end when this task is cancelled.
            await holder.value
            return 1
        }
    }

    @Test func anOperationThatIgnoresCancellationStillTimesOut() async throws {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        defer { opener.finish() }
        await #expect(throws: TimeoutError.self) {
            try await withTimeout(.milliseconds(50), "a stubborn operation", operation: Self.stubbornOperation(gate))
        }
    }

    @Test func theResultOrErrorOfAPromptOperationComesBack() async throws {
        #expect(try await withTimeout(.seconds(30)) { 7 } == 7)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withTimeout(.seconds(30)) { () async throws -> Int in throw Refused() }
        }
    }

    @Test func cancellingTheCallerEndsTheWait() async throws {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        defer { opener.finish() }
        let waiting = Task { try await withTimeout(.seconds(600), "a stubborn operation", operation: Self.stubbornOperation(gate)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
