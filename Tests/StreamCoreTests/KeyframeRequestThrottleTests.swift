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

    @Test(arguments: [Int64(100), 1000])
    func customIntervalIsHonoured(intervalMs: Int64) {
        var throttle = KeyframeRequestThrottle(minimumIntervalMs: intervalMs)
        let answers = [10_000, 10_000 + intervalMs - 1, 10_000 + intervalMs].map {
            throttle.shouldSendRequest(nowMs: $0)
        }
        #expect(answers == [true, false, true])
    }
}
