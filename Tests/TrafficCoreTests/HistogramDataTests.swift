import Testing

@testable import TrafficCore

/// A report's histogram restores the recorder it came from, and bad input cannot trap.
struct HistogramDataTests {
    @Test func restoresEveryBucket() {
        var recorder = LatencyRecorder()
        for value in [1, 2, 2, 999, 1000, 1001, 123_456, 59_999_999] as [Int64] { recorder.record(microseconds: value) }
        let restored = LatencyRecorder(data: recorder.data)
        #expect(restored.data == recorder.data)
        #expect(restored.summary == recorder.summary)
        #expect(recorder.data.count == 8)
    }

    @Test func malformedPairsAreIgnoredAndHugeValuesClamped() {
        let data = HistogramData(buckets: [[5], [10, 2], [UInt64.max, 1], [7, 0], [1, 2, 3]])
        let recorder = LatencyRecorder(data: data)
        #expect(recorder.count == 3)
        #expect(recorder.summary.max == Double(LatencyRecorder.highestMicroseconds) / 1000)
    }
}
