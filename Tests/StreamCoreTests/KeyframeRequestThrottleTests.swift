import StreamCore
import Testing

@Suite struct KeyframeRequestThrottleTests {
    /// One scripted step: at `nowMs`, either a request is raised (and `forwarded` says whether
    /// it must go out) or a keyframe arrives.
    enum Step: Sendable {
        case request(nowMs: Int64, forwarded: Bool)
        case keyframe(nowMs: Int64)
    }

    static let script: [Step] = [
        .request(nowMs: 0, forwarded: true),
        .request(nowMs: 1, forwarded: false),
        .request(nowMs: 499, forwarded: false),
        .request(nowMs: 500, forwarded: true),
        .request(nowMs: 700, forwarded: false),
        .request(nowMs: 2000, forwarded: true),
        // A keyframe opens a quiet period: requests still in flight from before it are merged.
        .keyframe(nowMs: 2600),
        .request(nowMs: 2700, forwarded: false),
        .request(nowMs: 3099, forwarded: false),
        .request(nowMs: 3100, forwarded: true),
        .request(nowMs: 3200, forwarded: false),
    ]

    @Test func mergesRequestsToOnePerInterval() {
        var throttle = KeyframeRequestThrottle()
        #expect(throttle.minimumIntervalMs == 500)
        for (index, step) in Self.script.enumerated() {
            switch step {
            case .request(let nowMs, let forwarded):
                let sent = throttle.shouldSendRequest(nowMs: nowMs)
                #expect(sent == forwarded, "step \(index) at \(nowMs) ms")
            case .keyframe(let nowMs):
                throttle.keyframeReceived(nowMs: nowMs)
            }
        }
        #expect(throttle.lastRequestMs == 3100)
        #expect(throttle.lastKeyframeMs == 2600)
    }

    /// Requests for sinks bound after the last keyframe ignore the quiet period it opened; an
    /// unanswered request younger than `inFlightMs` holds them back, and one the publisher would
    /// ignore (its last request was answered less than `publisherHoldMs` ago) waits for the end
    /// of that hold unless a keyframe comes first.
    @Test func requestsForWaitingSinksWaitOnlyForARequestInFlightOrThePublishersHold() {
        var throttle = KeyframeRequestThrottle()
        let inFlight = KeyframeRequestThrottle.inFlightMs
        let hold = KeyframeRequestThrottle.publisherHoldMs
        var answers: [Bool] = []
        answers.append(throttle.shouldSendRequestForWaitingSinks(nowMs: 0))
        answers.append(throttle.shouldSendRequestForWaitingSinks(nowMs: inFlight - 1))  // the first is in flight
        throttle.keyframeReceived(nowMs: 30)
        answers.append(throttle.shouldSendRequest(nowMs: 130))  // a plain request in the quiet period is merged
        answers.append(throttle.shouldSendRequestForWaitingSinks(nowMs: 130))  // the publisher would ignore it
        #expect(throttle.deferredRequestMs == hold)
        answers.append(throttle.takeDueDeferredRequest(nowMs: hold - 1))
        answers.append(throttle.takeDueDeferredRequest(nowMs: hold))
        answers.append(throttle.shouldSendRequestForWaitingSinks(nowMs: hold + 80))  // that one is in flight
        answers.append(throttle.shouldSendRequestForWaitingSinks(nowMs: hold + inFlight))  // unanswered too long: lost
        answers.append(throttle.shouldSendRequest(nowMs: hold + inFlight + 400))  // it counts for the plain interval
        #expect(answers == [true, false, false, false, false, true, false, true, false])
        // A keyframe that comes before a deferred request is due answers it.
        throttle.keyframeReceived(nowMs: 600)
        let deferred = throttle.shouldSendRequestForWaitingSinks(nowMs: 650)
        #expect(!deferred)
        #expect(throttle.deferredRequestMs == hold + inFlight + hold)
        throttle.keyframeReceived(nowMs: 700)
        #expect(throttle.deferredRequestMs == nil)
        let due = throttle.takeDueDeferredRequest(nowMs: 2000)
        #expect(!due)
    }

    @Test(arguments: [Int64(100), 1000])
    func customIntervalIsHonoured(intervalMs: Int64) {
        var throttle = KeyframeRequestThrottle(minimumIntervalMs: intervalMs)
        let answers = [10_000, 10_000 + intervalMs - 1, 10_000 + intervalMs].map {
            throttle.shouldSendRequest(nowMs: $0)
        }
        #expect(answers == [true, false, true])
    }
}
