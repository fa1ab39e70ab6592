import StreamCore
import Testing

/// Active-speaker changes from scripted sequences of loudest levels.
@Suite struct ActiveSpeakerTrackerTests {
    /// One update: the loudest user and level fed in, and the change expected out.
    struct Step: Sendable {
        var loudest: String?
        var level: UInt8
        var change: String?
    }

    static func run(_ steps: [Step], hold: Int = 2) -> ActiveSpeakerTracker<String> {
        var tracker = ActiveSpeakerTracker<String>(speakingLevel: 60, holdReports: hold)
        for (position, step) in steps.enumerated() {
            let change = tracker.update(loudest: step.loudest, level: step.level)
            #expect(change == step.change, "step \(position)")
        }
        return tracker
    }

    @Test func becomesSpeakerAfterHoldReports() {
        let tracker = Self.run([
            Step(loudest: "a", level: 20, change: nil),
            Step(loudest: "a", level: 25, change: "a"),
            Step(loudest: "a", level: 25, change: nil),
        ])
        #expect(tracker.current == "a")
    }

    @Test func aBriefInterruptionDoesNotSwitch() {
        let tracker = Self.run([
            Step(loudest: "a", level: 20, change: nil),
            Step(loudest: "a", level: 20, change: "a"),
            Step(loudest: "b", level: 10, change: nil),
            Step(loudest: "a", level: 20, change: nil),
            Step(loudest: "b", level: 10, change: nil),
            Step(loudest: "b", level: 10, change: "b"),
        ])
        #expect(tracker.current == "b")
    }

    @Test func quietLevelsNeverMakeASpeaker() {
        let tracker = Self.run([
            Step(loudest: "a", level: 61, change: nil),
            Step(loudest: "a", level: 90, change: nil),
            Step(loudest: nil, level: 127, change: nil),
        ])
        #expect(tracker.current == nil)
    }

    @Test func silenceKeepsTheLastSpeakerAndResetsTheCandidate() {
        let tracker = Self.run([
            Step(loudest: "a", level: 30, change: nil),
            Step(loudest: "a", level: 30, change: "a"),
            Step(loudest: "b", level: 30, change: nil),
            Step(loudest: nil, level: 127, change: nil),
            Step(loudest: "b", level: 30, change: nil),
        ])
        #expect(tracker.current == "a")
    }

    @Test func holdOfOneSwitchesAtOnceAndRemovalForgets() {
        var tracker = Self.run([Step(loudest: "a", level: 0, change: "a")], hold: 1)
        tracker.remove("a")
        #expect(tracker.current == nil)
        #expect(tracker.update(loudest: "a", level: 0) == "a")
    }
}
