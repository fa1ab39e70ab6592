/// Asks for a keyframe at once and keeps asking at a fixed interval until one arrives, up to a
/// bounded number of attempts.
///
/// Requests travel over lossy links and may be throttled further upstream, so a single request
/// is not enough when a subscriber cannot decode anything until the next keyframe. The bound
/// stops a publisher that never answers from being asked forever.
public struct KeyframeRequestRepeater: Sendable {
    /// The time between two requests while waiting.
    public let intervalMs: Int64
    /// The largest number of requests made for one wait.
    public let maximumAttempts: Int

    /// Whether the repeater is waiting for a keyframe and may still ask for one.
    public private(set) var isActive = false
    /// The number of requests made since the wait started.
    public private(set) var attemptsMade = 0
    /// When the next request is due while active.
    private var nextRequestMs: Int64 = 0

    /// Creates an idle repeater.
    ///
    /// - Parameters:
    ///   - intervalMs: The time between two requests while waiting.
    ///   - maximumAttempts: The largest number of requests made for one wait.
    public init(intervalMs: Int64 = 300, maximumAttempts: Int = 10) {
        self.intervalMs = intervalMs
        self.maximumAttempts = maximumAttempts
    }

    /// Starts waiting for a keyframe; the next ``poll(nowMs:)`` asks at once.
    ///
    /// Starting again while already waiting changes nothing, so that repeated triggers cannot
    /// extend the wait beyond its bound.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func start(nowMs: Int64) {
        guard !isActive else { return }
        isActive = maximumAttempts > 0
        attemptsMade = 0
        nextRequestMs = nowMs
    }

    /// Decides whether to send a keyframe request now.
    ///
    /// After the last allowed attempt the repeater gives it one interval to be answered and then
    /// stops waiting.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    /// - Returns: `true` when a request must be sent now.
    public mutating func poll(nowMs: Int64) -> Bool {
        guard isActive, nowMs >= nextRequestMs else { return false }
        guard attemptsMade < maximumAttempts else {
            isActive = false
            return false
        }
        attemptsMade += 1
        nextRequestMs = nowMs + intervalMs
        return true
    }

    /// Stops waiting because a keyframe reached the subscriber.
    public mutating func keyframeDelivered() {
        isActive = false
    }
}
