import MediaPlane

/// One session's volume-report settings for a room and the levels gathered since its last report.
struct AudioReportSubscription: Sendable {
    var intervalMs: Int64
    var topN: Int
    /// Relay milliseconds when the next report is due.
    var dueMs: Int64
    /// Loudest level per source id since the last report.
    var pending: [UInt32: AudioLevelSample] = [:]
    /// Whether the last report named anyone (one empty report follows the last non-empty one).
    var lastHadSpeakers = false
}
