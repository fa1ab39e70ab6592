/// An HDR histogram as written in JSON reports: every non-empty bucket as `[value, count]`, with
/// the value the bucket's highest equivalent in microseconds. Recording each pair back into a
/// histogram of the same shape restores it bucket for bucket, which is what lets `merge` add the
/// histograms of several reports instead of averaging their percentiles.
public struct HistogramData: Sendable, Codable, Hashable {
    /// The unit of the values: always `us` (microseconds).
    public var unit: String = "us"
    /// Significant digits kept by the histogram (3).
    public var significantDigits: Int = 3
    /// `[value, count]` pairs in ascending value order.
    public var buckets: [[UInt64]]

    public init(buckets: [[UInt64]]) {
        self.buckets = buckets
    }

    /// Values recorded.
    public var count: UInt64 { buckets.reduce(0) { $0 &+ ($1.count == 2 ? $1[1] : 0) } }
}
