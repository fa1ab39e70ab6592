/// Merges the keyframe requests (PLI or FIR) that many subscribers, forwards and links raise for
/// one source into at most one request per interval towards the publisher.
///
/// An encoder asked for keyframes too often spends its whole bitrate on them, and every
/// subscriber that joins or loses a packet asks, so requests are let through at most once per
/// ``minimumIntervalMs``. A keyframe arriving also opens a quiet period of the same length:
/// requests raised before the subscribers received that keyframe are still in flight and would
/// otherwise trigger a second, useless one.
public struct KeyframeRequestThrottle: Sendable {
    /// The shortest time between two forwarded requests, and the quiet period after a keyframe.
    public let minimumIntervalMs: Int64
    /// When the last request was let through, if ever.
    public private(set) var lastRequestMs: Int64?
    /// When the last keyframe arrived from the source, if ever.
    public private(set) var lastKeyframeMs: Int64?

    /// Creates a throttle that lets the first request through at once.
    ///
    /// - Parameter minimumIntervalMs: The shortest time between two forwarded requests.
    public init(minimumIntervalMs: Int64 = 500) {
        self.minimumIntervalMs = minimumIntervalMs
    }

    /// Decides whether a keyframe request raised now is sent to the publisher.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    /// - Returns: `true` when the request must be sent; the throttle then counts it as sent.
    public mutating func shouldSendRequest(nowMs: Int64) -> Bool {
        if let lastRequestMs, nowMs - lastRequestMs < minimumIntervalMs { return false }
        if let lastKeyframeMs, nowMs - lastKeyframeMs < minimumIntervalMs { return false }
        lastRequestMs = nowMs
        return true
    }

    /// Notes that the source delivered a keyframe.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func keyframeReceived(nowMs: Int64) {
        lastKeyframeMs = nowMs
    }
}
