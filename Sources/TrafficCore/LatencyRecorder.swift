import Histogram

/// A latency distribution in microseconds, kept in an HDR histogram (three significant digits,
/// 1 µs to 60 s; larger values are clamped to 60 s).
public struct LatencyRecorder: Sendable {
    /// The largest value recorded exactly, in microseconds.
    public static let highestMicroseconds: UInt64 = 60_000_000

    private(set) var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: LatencyRecorder.highestMicroseconds, numberOfSignificantValueDigits: .three)

    public init() {}

    /// Values recorded.
    public var count: UInt64 { histogram.totalCount }

    /// Records one latency (negative values count as 0).
    public mutating func record(microseconds: Int64) {
        let value = UInt64(max(0, min(Int64(Self.highestMicroseconds), microseconds)))
        _ = histogram.record(value)
    }

    /// Records one latency given in milliseconds.
    public mutating func record(milliseconds: Double) {
        record(microseconds: Int64((milliseconds * 1000).rounded()))
    }

    /// Adds every value of `other`.
    public mutating func add(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
    }

    /// Creates a recorder holding the buckets of `data` (a report's histogram).
    ///
    /// Pairs that are not `[value, count]` are ignored, and values beyond the recorder's range are
    /// clamped to it, so a hand-edited report cannot make the recorder trap.
    public init(data: HistogramData) {
        for pair in data.buckets where pair.count == 2 && pair[1] > 0 {
            _ = histogram.record(min(pair[0], Self.highestMicroseconds), count: pair[1])
        }
    }

    /// The histogram as written in reports.
    public var data: HistogramData {
        var buckets = histogram.recordedValues().map { [$0.value, $0.count] }
        // The top bucket carries the exact maximum (a value of that bucket like any other), so a
        // restored or merged recorder reports the same max.
        if !buckets.isEmpty { buckets[buckets.count - 1][0] = histogram.maxRecorded }
        return HistogramData(buckets: buckets)
    }

    /// Records `count` equal latencies at once (a frame's packets leave together).
    public mutating func record(microseconds: Int64, count: UInt64) {
        guard count > 0 else { return }
        let value = UInt64(max(0, min(Int64(Self.highestMicroseconds), microseconds)))
        _ = histogram.record(value, count: count)
    }

    /// Forgets every value.
    public mutating func reset() {
        histogram.reset()
    }

    /// The value at `percentile` (0-100), in milliseconds; 0 when empty.
    public func percentileMilliseconds(_ percentile: Double) -> Double {
        guard count > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    /// The summary written in reports.
    public var summary: LatencySummary {
        guard count > 0 else { return LatencySummary(count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0) }
        return LatencySummary(
            count: count,
            p50: percentileMilliseconds(50), p90: percentileMilliseconds(90), p99: percentileMilliseconds(99),
            p999: percentileMilliseconds(99.9), max: Double(histogram.maxRecorded) / 1000)
    }
}
