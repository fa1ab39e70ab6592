import Testing

@testable import StreamCore

/// The trendline's running sums against the least-squares slope computed afresh from the same
/// window, over hours of arrivals (the times grow; the sums must not drift or lose precision).
@Suite struct TrendlineWindowTests {
    /// The slope of the last `TrendlineDelayDetector.windowSize` points, in two passes.
    static func reference(_ points: ArraySlice<(time: Double, delay: Double)>) -> Double? {
        let count = Double(points.count)
        let meanTime = points.map(\.time).reduce(0, +) / count
        let meanDelay = points.map(\.delay).reduce(0, +) / count
        var numerator = 0.0
        var denominator = 0.0
        for point in points {
            numerator += (point.time - meanTime) * (point.delay - meanDelay)
            denominator += (point.time - meanTime) * (point.time - meanTime)
        }
        return denominator == 0 ? nil : numerator / denominator
    }

    @Test func theRunningSlopeMatchesTheSlopeTakenAfresh() throws {
        var detector = TrendlineDelayDetector()
        var generator = SystemRandomNumberGenerator()
        var points: [(time: Double, delay: Double)] = []
        var time = 0.0
        var delay = 0.0
        var largestError = 0.0
        // About 3 hours of groups 5-40 ms apart, the delay wandering by up to ±3 ms per group.
        for step in 0..<400_000 {
            time += Double.random(in: 5...40, using: &generator)
            delay += Double.random(in: -3...3, using: &generator)
            detector.append(time: time, delay: delay)
            points.append((time, delay))
            guard step >= TrendlineDelayDetector.windowSize, step % 97 == 0 else { continue }
            let expected = try #require(Self.reference(points.suffix(TrendlineDelayDetector.windowSize)))
            let slope = try #require(detector.slope())
            largestError = max(largestError, abs(slope - expected) / max(abs(expected), 1e-3))
        }
        #expect(largestError < 1e-6, "largest relative error \(largestError)")
    }

    @Test func equalTimesGiveNoSlope() {
        var detector = TrendlineDelayDetector()
        for index in 0..<(3 * TrendlineDelayDetector.windowSize) {
            detector.append(time: 12_345.678, delay: Double(index))
        }
        #expect(detector.slope() == nil)
    }
}
