/// The delay-based half of Google congestion control (draft-ietf-rmcat-gcc-02, section 5):
/// from the deltas between packet groups it keeps the accumulated one-way delay variation,
/// smooths it, fits a line through the last ``windowSize`` points, and calls the path
/// overusing when the slope, scaled, stays above an adaptive threshold; underusing below its
/// negative. The constants are those libwebrtc's trendline estimator ships with.
///
/// The window is a fixed ring with running sums, so an update never allocates and the slope
/// costs a few operations instead of two passes over the window (it was half the cost of reading
/// a feedback). The stored times are re-based on the window's oldest point, and the sums taken
/// afresh, once per window, so neither rounding nor the growing time carries over.
public struct TrendlineDelayDetector: Sendable {
    public static let windowSize = 20
    static let smoothing = 0.9
    static let thresholdGain = 4.0
    static let overuseTimeThresholdMs = 10.0
    static let thresholdUpGain = 0.0087
    static let thresholdDownGain = 0.039
    static let minimumThreshold = 6.0
    static let maximumThreshold = 600.0
    /// A trend this far past the threshold is an outlier the threshold does not follow.
    static let maximumThresholdStepMs = 15.0

    public private(set) var usage: BandwidthUsage = .normal
    /// The adaptive threshold (ms) and the last scaled trend compared with it.
    public private(set) var threshold = 12.5
    public private(set) var modifiedTrend = 0.0

    var deltaCount = 0
    var firstArrivalMs: Double?
    var accumulatedDelayMs = 0.0
    var smoothedDelayMs = 0.0
    /// The window's points: time since ``timeOrigin`` and smoothed accumulated delay (ms).
    var times = InlineArray<20, Double>(repeating: 0)
    var delays = InlineArray<20, Double>(repeating: 0)
    var pointCount = 0
    var nextPoint = 0
    /// Where the stored times count from (ms since the first delta).
    var timeOrigin = 0.0
    var sumTimes = 0.0
    var sumDelays = 0.0
    var sumTimesSquared = 0.0
    var sumTimesDelays = 0.0
    var appendsSinceRebase = 0
    var previousTrend = 0.0
    var overuseTimeMs: Double?
    var overuseCount = 0
    var lastThresholdUpdateMs: Double?

    public init() {}

    /// Takes one group delta; returns the usage now concluded.
    @discardableResult
    public mutating func update(_ delta: InterArrivalGrouping.Delta) -> BandwidthUsage {
        let sendDeltaMs = Double(delta.sendDeltaUs) / 1000
        let arrivalMs = Double(delta.arrivalUs) / 1000
        deltaCount = min(deltaCount + 1, 1000)
        let first = firstArrivalMs ?? arrivalMs
        firstArrivalMs = first
        accumulatedDelayMs += Double(delta.arrivalDeltaUs - delta.sendDeltaUs) / 1000
        smoothedDelayMs = Self.smoothing * smoothedDelayMs + (1 - Self.smoothing) * accumulatedDelayMs
        append(time: arrivalMs - first, delay: smoothedDelayMs)
        var trend = previousTrend
        if pointCount == Self.windowSize, let slope = slope() { trend = slope }
        detect(trend: trend, sendDeltaMs: sendDeltaMs, nowMs: arrivalMs)
        return usage
    }

    mutating func append(time: Double, delay: Double) {
        if pointCount == Self.windowSize {
            let oldTime = times[nextPoint]
            let oldDelay = delays[nextPoint]
            sumTimes -= oldTime
            sumDelays -= oldDelay
            sumTimesSquared -= oldTime * oldTime
            sumTimesDelays -= oldTime * oldDelay
        }
        let storedTime = time - timeOrigin
        times[nextPoint] = storedTime
        delays[nextPoint] = delay
        sumTimes += storedTime
        sumDelays += delay
        sumTimesSquared += storedTime * storedTime
        sumTimesDelays += storedTime * delay
        nextPoint = (nextPoint + 1) % Self.windowSize
        pointCount = min(pointCount + 1, Self.windowSize)
        appendsSinceRebase += 1
        if appendsSinceRebase == Self.windowSize { rebase() }
    }

    /// Counts the stored times from the window's oldest point and takes the sums afresh.
    mutating func rebase() {
        appendsSinceRebase = 0
        let oldest = times[pointCount == Self.windowSize ? nextPoint : 0]
        timeOrigin += oldest
        sumTimes = 0
        sumDelays = 0
        sumTimesSquared = 0
        sumTimesDelays = 0
        for index in 0..<pointCount {
            let storedTime = times[index] - oldest
            times[index] = storedTime
            sumTimes += storedTime
            sumDelays += delays[index]
            sumTimesSquared += storedTime * storedTime
            sumTimesDelays += storedTime * delays[index]
        }
    }

    /// The least-squares slope through the window's points; nil when their times do not vary.
    func slope() -> Double? {
        let count = Double(pointCount)
        let denominator = count * sumTimesSquared - sumTimes * sumTimes
        // Equal times leave only rounding here: relative to the terms, that is zero.
        guard denominator > 1e-9 * max(count * sumTimesSquared, 1) else { return nil }
        return (count * sumTimesDelays - sumTimes * sumDelays) / denominator
    }

    mutating func detect(trend: Double, sendDeltaMs: Double, nowMs: Double) {
        guard deltaCount >= 2 else {
            usage = .normal
            return
        }
        modifiedTrend = Double(min(deltaCount, 60)) * trend * Self.thresholdGain
        if modifiedTrend > threshold {
            overuseTimeMs = overuseTimeMs.map { $0 + sendDeltaMs } ?? sendDeltaMs / 2
            overuseCount += 1
            if let time = overuseTimeMs, time > Self.overuseTimeThresholdMs, overuseCount > 1, trend >= previousTrend {
                overuseTimeMs = 0
                overuseCount = 0
                usage = .overusing
            }
        } else if modifiedTrend < -threshold {
            overuseTimeMs = nil
            overuseCount = 0
            usage = .underusing
        } else {
            overuseTimeMs = nil
            overuseCount = 0
            usage = .normal
        }
        previousTrend = trend
        updateThreshold(nowMs: nowMs)
    }

    mutating func updateThreshold(nowMs: Double) {
        let last = lastThresholdUpdateMs ?? nowMs
        let magnitude = abs(modifiedTrend)
        if magnitude > threshold + Self.maximumThresholdStepMs {
            lastThresholdUpdateMs = nowMs
            return
        }
        let gain = magnitude < threshold ? Self.thresholdDownGain : Self.thresholdUpGain
        let elapsed = min(max(nowMs - last, 0), 100)
        threshold += gain * (magnitude - threshold) * elapsed
        threshold = min(max(threshold, Self.minimumThreshold), Self.maximumThreshold)
        lastThresholdUpdateMs = nowMs
    }
}
