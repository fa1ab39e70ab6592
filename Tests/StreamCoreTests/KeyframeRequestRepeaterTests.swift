import StreamCore
import Testing

@Suite struct KeyframeRequestRepeaterTests {
    /// Polls at each time in turn and collects the answers.
    func poll(_ repeater: inout KeyframeRequestRepeater, at times: [Int64]) -> [Bool] {
        times.map { repeater.poll(nowMs: $0) }
    }

    @Test func asksAtOnceAndRepeatsUntilKeyframeArrives() {
        var repeater = KeyframeRequestRepeater()
        #expect(!repeater.isActive)
        #expect(poll(&repeater, at: [0]) == [false])

        repeater.start(nowMs: 1000)
        #expect(repeater.isActive)
        let answers = poll(&repeater, at: [1000, 1001, 1299, 1300, 1450, 1600])
        #expect(answers == [true, false, false, true, false, true])
        #expect(repeater.attemptsMade == 3)

        repeater.keyframeDelivered()
        #expect(!repeater.isActive)
        #expect(poll(&repeater, at: [1900, 5000]) == [false, false])
    }

    @Test func slowsDownAfterMaximumAttemptsUntilStopped() {
        var repeater = KeyframeRequestRepeater(intervalMs: 100, maximumAttempts: 3, slowIntervalMs: 1000)
        repeater.start(nowMs: 0)
        var sent: [Int64] = []
        for nowMs in stride(from: Int64(0), through: 3500, by: 50) where repeater.poll(nowMs: nowMs) {
            sent.append(nowMs)
        }
        #expect(sent == [0, 100, 200, 1200, 2200, 3200])
        #expect(repeater.isActive)

        repeater.stop()
        #expect(!repeater.isActive)
        #expect(poll(&repeater, at: [4200, 9000]) == [false, false])

        // A new wait begins with the short interval again.
        repeater.start(nowMs: 10_000)
        #expect(poll(&repeater, at: [10_000, 10_100]) == [true, true])
    }

    @Test func startingAgainWhileWaitingDoesNotRestartTheShortPhase() {
        var repeater = KeyframeRequestRepeater(intervalMs: 300, maximumAttempts: 2, slowIntervalMs: 2000)
        repeater.start(nowMs: 0)
        #expect(poll(&repeater, at: [0]) == [true])
        repeater.start(nowMs: 100)
        #expect(poll(&repeater, at: [100, 300]) == [false, true])
        repeater.start(nowMs: 400)
        #expect(poll(&repeater, at: [600, 2299, 2300]) == [false, false, true])
        #expect(repeater.attemptsMade == 3)
    }

    @Test func slowIntervalIsNeverShorterThanTheShortOne() {
        let repeater = KeyframeRequestRepeater(intervalMs: 500, maximumAttempts: 2, slowIntervalMs: 100)
        #expect(repeater.slowIntervalMs == 500)
    }

    @Test func latePollDoesNotBurst() {
        var repeater = KeyframeRequestRepeater(intervalMs: 300, maximumAttempts: 10)
        repeater.start(nowMs: 0)
        #expect(poll(&repeater, at: [0, 1000, 1001, 1299, 1300]) == [true, true, false, false, true])
    }

    @Test func zeroAttemptsNeverAsks() {
        var repeater = KeyframeRequestRepeater(intervalMs: 300, maximumAttempts: 0)
        repeater.start(nowMs: 0)
        #expect(!repeater.isActive)
        #expect(poll(&repeater, at: [0, 300]) == [false, false])
    }
}
