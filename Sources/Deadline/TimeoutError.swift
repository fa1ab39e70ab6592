/// Thrown by ``withTimeout(_:operation:)`` when the operation did not finish in time.
public struct TimeoutError: Error, Sendable, CustomStringConvertible {
    /// How long the operation was given.
    public var duration: Duration
    /// What was being waited for, for test failure messages.
    public var what: String

    /// Creates an error for an operation `what` that did not finish within `duration`.
    public init(duration: Duration, what: String) {
        self.duration = duration
        self.what = what
    }

    public var description: String { "timed out after \(duration) waiting for \(what)" }
}
