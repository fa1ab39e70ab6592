/// Asks for a keyframe at once, keeps asking at a short interval for a bounded number of
/// attempts, and after that at a long interval until a keyframe arrives or nobody waits any more.
///
/// Requests travel over lossy links and may be throttled further upstream, so a single request
/// is not enough when a subscriber cannot decode anything until the next keyframe. The short
/// phase covers ordinary loss; the long one covers a keyframe lost after the short phase ended
/// or a publisher too busy to answer at first, either of which would otherwise leave a viewer
/// black until the encoder's next scheduled keyframe (minutes for some encoders), while asking a
/// publisher that never answers only rarely.
public struct KeyframeRequestRepeater: Sendable {
    /// The time between two requests while waiting.
    public let intervalMs: Int64
    /// The number of requests made at `intervalMs` before slowing down.
    public let maximumAttempts: Int
    /// The time between two requests once the short phase is over.
    public let slowIntervalMs: Int64

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
    ///   - maximumAttempts: The number of requests made at `intervalMs` before slowing down
    ///     (0: never ask).
    ///   - slowIntervalMs: The time between two requests after that.
    public init(intervalMs: Int64 = 300, maximumAttempts: Int = 10, slowIntervalMs: Int64 = 2000) {
        self.intervalMs = intervalMs
        self.maximumAttempts = maximumAttempts
        self.slowIntervalMs = max(slowIntervalMs, intervalMs)
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
    /// The caller stops the repeater with ``stop()`` when nobody waits for the keyframe any more.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    /// - Returns: `true` when a request must be sent now.
    public mutating func poll(nowMs: Int64) -> Bool {
        guard isActive, nowMs >= nextRequestMs else { return false }
        attemptsMade += 1
        nextRequestMs = nowMs + (attemptsMade < maximumAttempts ? intervalMs : slowIntervalMs)
        return true
    }

    /// Stops waiting because a keyframe reached the subscriber.
    public mutating func keyframeDelivered() {
        isActive = false
    }

    /// Stops waiting because no subscriber needs a keyframe any more.
    public mutating func stop() {
        isActive = false
    }
}
