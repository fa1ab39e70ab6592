/// Scores network quality on the TRTC scale: 0 Unknown, 1 Excellent, 2 Good, 3 Poor, 4 Bad,
/// 5 Vbad, 6 Down.
///
/// A sample with no media ever is Unknown; media that stopped for `downAfterMs` (4 s) is Down.
/// Otherwise each figure maps to a grade by the first threshold it stays under, and the worst
/// grade wins:
///
/// | grade | loss (effective) | jitter | round-trip time |
/// |---|---|---|---|
/// | 1 Excellent | < 2 % | < 30 ms | < 100 ms |
/// | 2 Good | < 5 % | < 50 ms | < 200 ms |
/// | 3 Poor | < 10 % | < 100 ms | < 400 ms |
/// | 4 Bad | < 20 % | < 200 ms | < 800 ms |
/// | 5 Vbad | otherwise | otherwise | otherwise |
///
/// Effective loss is the worst of the receiver's fraction lost, the relay's own drop rate and the
/// NACK rate (``NetworkQualitySample/effectiveLoss``). A missing round-trip time grades nothing.
public enum NetworkQualityScorer {
    public static let unknown = 0
    public static let excellent = 1
    public static let vbad = 5
    public static let down = 6
    /// Silence longer than this is Down.
    public static let downAfterMs: Int64 = 4000
    public static let lossThresholds: [Double] = [0.02, 0.05, 0.10, 0.20]
    public static let jitterThresholdsMs: [Double] = [30, 50, 100, 200]
    public static let roundTripThresholdsMs: [Double] = [100, 200, 400, 800]

    /// The grade of one sample.
    public static func score(_ sample: NetworkQualitySample) -> Int {
        guard sample.everReceived else { return unknown }
        if sample.idleMs >= downAfterMs { return down }
        var grade = grade(sample.effectiveLoss, lossThresholds)
        grade = max(grade, self.grade(sample.jitterMs, jitterThresholdsMs))
        if let rtt = sample.roundTripTimeMs { grade = max(grade, self.grade(rtt, roundTripThresholdsMs)) }
        return grade
    }

    /// The worst of several grades, ignoring Unknown; Unknown when all are.
    public static func worst(_ grades: [Int]) -> Int {
        grades.filter { $0 != unknown }.max() ?? unknown
    }

    static func grade(_ value: Double, _ thresholds: [Double]) -> Int {
        for (index, limit) in thresholds.enumerated() where value < limit { return excellent + index }
        return vbad
    }
}
