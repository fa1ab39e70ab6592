import MediaPlane
import StreamCore

/// What ``RelayCore`` keeps between ticks for media activity, volume reports, active speakers and network quality.
struct MediaQualityState: Sendable {
    /// Sessions that enabled volume reports, per room.
    var audioReports: [AudioReportKey: AudioReportSubscription] = [:]
    /// The active speaker per room (only rooms where someone enabled reports).
    var speakers: [String: ActiveSpeakerTracker<String>] = [:]
    /// When the data plane made the last report the engine was told about.
    var lastReportAtMs: Int64 = 0
    /// Relay milliseconds of the last network-quality round.
    var lastQualityMs: Int64 = 0
    /// The media figures of the last round, for per-window deltas.
    var previousSources: [UInt32: SourceReport] = [:]
    var previousSinks: [UInt32: SinkReport] = [:]

    /// How often network quality is reported.
    static let qualityIntervalMs: Int64 = 2000
    /// A report is sent on the tick nearest its due time: up to this much early.
    static let earlyToleranceMs: Int64 = 125
}
