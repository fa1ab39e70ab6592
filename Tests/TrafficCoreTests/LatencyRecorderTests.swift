import Testing

@testable import TrafficCore

/// Percentiles of the HDR latency histogram.
struct LatencyRecorderTests {
    @Test func percentilesOfAUniformDistribution() {
        var recorder = LatencyRecorder()
        for milliseconds in 1...1000 { recorder.record(microseconds: Int64(milliseconds) * 1000) }
        let summary = recorder.summary
        #expect(summary.count == 1000)
        #expect(abs(summary.p50 - 500) <= 1)
        #expect(abs(summary.p90 - 900) <= 1)
        #expect(abs(summary.p99 - 990) <= 1)
        #expect(abs(summary.p999 - 999) <= 1)
        #expect(abs(summary.max - 1000) <= 1)
    }

    @Test func tailIsVisible() {
        var recorder = LatencyRecorder()
        for _ in 0..<990 { recorder.record(milliseconds: 2) }
        for _ in 0..<10 { recorder.record(milliseconds: 80) }
        let summary = recorder.summary
        #expect(abs(summary.p50 - 2) < 0.01)
        #expect(abs(summary.p99 - 2) < 0.01)
        #expect(abs(summary.p999 - 80) < 0.1)
        #expect(abs(summary.max - 80) < 0.1)
    }

    @Test func emptyAndClampedAndMerged() {
        var empty = LatencyRecorder()
        #expect(empty.summary == LatencySummary(count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0))
        empty.record(microseconds: -5)
        empty.record(microseconds: 120_000_000)
        #expect(empty.count == 2)
        #expect(empty.summary.max <= 60_001)
        var other = LatencyRecorder()
        other.record(milliseconds: 1)
        empty.add(other)
        #expect(empty.count == 3)
        empty.reset()
        #expect(empty.count == 0)
    }
}
