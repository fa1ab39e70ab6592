import Testing
@testable import TrafficCore

/// The rollover counter a receiver opens SRTP packets with.
struct RolloverEstimatorTests {
    @Test func followsTheSequenceAcrossWrapsAndReordering() {
        var estimator = RolloverEstimator()
        #expect(estimator.index(of: 65_534) == 65_534)
        var sequence: UInt16 = 65_534
        for expected: Int64 in [65_534, 65_535, 65_536, 65_537] {
            let index = estimator.index(of: sequence)
            #expect(index == expected)
            estimator.accept(index)
            sequence &+= 1
        }
        #expect(RolloverEstimator.rolloverCounter(of: estimator.index(of: 2)) == 1)
        // A late packet from before the wrap keeps its own rollover counter and moves nothing.
        #expect(estimator.index(of: 65_535) == 65_535)
        estimator.accept(65_535)
        #expect(estimator.highest == 65_537)
        // Many wraps later.
        for _ in 0..<(3 * 65_536 / 1000) {
            let index = estimator.index(of: sequence)
            estimator.accept(index)
            sequence &+= 1000
        }
        #expect(RolloverEstimator.rolloverCounter(of: estimator.highest!) == 3)
    }

    /// The loss counter starts afresh when measuring starts; the estimate must not, or every
    /// packet of a stream that wrapped before then would fail to open.
    @Test func theLossCounterResetDoesNotTouchIt() {
        var estimator = RolloverEstimator()
        var counter = SequenceLossCounter()
        var sequence: UInt16 = 65_000
        for _ in 0..<1000 {
            estimator.accept(estimator.index(of: sequence))
            counter.record(sequence)
            sequence &+= 1
        }
        counter = SequenceLossCounter()
        #expect(RolloverEstimator.rolloverCounter(of: counter.extend(sequence)) == 0)
        #expect(RolloverEstimator.rolloverCounter(of: estimator.index(of: sequence)) == 1)
    }
}
