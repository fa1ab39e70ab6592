import Testing
import StreamCore

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

    @Test func stopsAfterMaximumAttempts() {
        var repeater = KeyframeRequestRepeater(intervalMs: 100, maximumAttempts: 3)
        repeater.start(nowMs: 0)
        var sent: [Int64] = []
        for nowMs in stride(from: Int64(0), through: 1000, by: 50) where repeater.poll(nowMs: nowMs) {
            sent.append(nowMs)
        }
        #expect(sent == [0, 100, 200])
        #expect(!repeater.isActive)

        // A new wait may begin once the previous one has given up.
        repeater.start(nowMs: 2000)
        #expect(repeater.isActive)
        #expect(poll(&repeater, at: [2000]) == [true])
    }

    @Test func startingAgainWhileWaitingDoesNotExtendTheWait() {
        var repeater = KeyframeRequestRepeater(intervalMs: 300, maximumAttempts: 2)
        repeater.start(nowMs: 0)
        #expect(poll(&repeater, at: [0]) == [true])
        repeater.start(nowMs: 100)
        #expect(poll(&repeater, at: [100, 300]) == [false, true])
        repeater.start(nowMs: 400)
        #expect(poll(&repeater, at: [600]) == [false])
        #expect(!repeater.isActive)
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
