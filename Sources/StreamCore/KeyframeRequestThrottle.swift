/// Merges the keyframe requests (PLI or FIR) that a source's many subscribers raise (in its room
/// and in the rooms its forwards and links reach) into at most one request per interval towards
/// the publisher.
///
/// An encoder asked for keyframes too often spends its whole bitrate on them, and every
/// subscriber that joins or loses a packet asks, so requests are let through at most once per
/// ``minimumIntervalMs``. A keyframe arriving also opens a quiet period of the same length:
/// requests raised before the subscribers received that keyframe are still in flight and would
/// otherwise trigger a second, useless one.
///
/// Subscribers bound after that keyframe never got it, so their requests (the repeater's) are
/// not held by the quiet period: only by a request still in flight, whose keyframe will reach
/// them too, and by the publisher's own hold. libwebrtc ignores a request that comes soon after
/// one it answered, so such a request is deferred to the end of that hold rather than sent to be
/// ignored and repeated a repeater interval later.
public struct KeyframeRequestThrottle: Sendable {
    /// The shortest time between two forwarded requests, and the quiet period after a keyframe.
    public let minimumIntervalMs: Int64
    /// When the last request was let through, if ever.
    public private(set) var lastRequestMs: Int64?
    /// When the last keyframe arrived from the source, if ever.
    public private(set) var lastKeyframeMs: Int64?
    /// When a request for waiting sinks held back by the publisher's own hold is due, if one is.
    public private(set) var deferredRequestMs: Int64?

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

    /// Decides whether a request made for subscribers that have not had a keyframe since they were
    /// bound is sent: the quiet period after the last keyframe does not apply (they did not get
    /// that keyframe), only a request sent less than ``inFlightMs`` ago and not answered by a
    /// keyframe yet holds it back, since its keyframe will reach them too. A request the
    /// publisher would ignore (its last one was answered less than ``publisherHoldMs`` ago) is not
    /// sent but deferred to the end of that hold: ``takeDueDeferredRequest(nowMs:)`` hands it out
    /// then, unless a keyframe came first.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    /// - Returns: `true` when the request must be sent; the throttle then counts it as sent.
    public mutating func shouldSendRequestForWaitingSinks(nowMs: Int64) -> Bool {
        if let lastRequestMs, nowMs - lastRequestMs < Self.inFlightMs, (lastKeyframeMs ?? Int64.min) < lastRequestMs { return false }
        if deferForPublisherHold(nowMs: nowMs) { return false }
        lastRequestMs = nowMs
        return true
    }

    /// Defers a request for waiting sinks that the publisher would ignore: its last request was
    /// answered by a keyframe less than ``publisherHoldMs`` ago.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    /// - Returns: `true` when the request is deferred (or one already is): it must not be sent now.
    public mutating func deferForPublisherHold(nowMs: Int64) -> Bool {
        if deferredRequestMs != nil { return true }
        guard let lastRequestMs, let lastKeyframeMs, lastKeyframeMs >= lastRequestMs, nowMs - lastRequestMs < Self.publisherHoldMs else { return false }
        deferredRequestMs = lastRequestMs + Self.publisherHoldMs
        return true
    }

    /// Notes a request sent without asking the throttle (the repeater's, for waiting sinks).
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func requestSent(nowMs: Int64) {
        lastRequestMs = nowMs
    }

    /// Whether the deferred request is due now; it then counts as sent.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func takeDueDeferredRequest(nowMs: Int64) -> Bool {
        guard let due = deferredRequestMs, nowMs >= due else { return false }
        deferredRequestMs = nil
        lastRequestMs = nowMs
        return true
    }

    /// How long a libwebrtc publisher (browsers, the mobile SDKs) ignores keyframe requests after
    /// one it answered, measured from when this relay sent that one, with a margin for its trip.
    public static let publisherHoldMs: Int64 = 320

    /// How long a request counts as in flight when no keyframe has answered it: a publisher's
    /// round trip and one frame interval, below the repeater's own interval so that its next
    /// attempt passes.
    public static let inFlightMs: Int64 = 200

    /// Notes that the source delivered a keyframe.
    ///
    /// - Parameter nowMs: The current monotonic time in milliseconds.
    public mutating func keyframeReceived(nowMs: Int64) {
        lastKeyframeMs = nowMs
        // The sinks a deferred request was for got this keyframe.
        deferredRequestMs = nil
    }
}
