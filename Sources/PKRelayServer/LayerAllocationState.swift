import MediaPlane
import Protocol
import RoomEngine

/// What ``RelayCore`` keeps between reports for the layer allocator: each source's measured rate,
/// each subscriber transport's budget, and how many limits changed.
struct LayerAllocationState: Sendable {
    var allocator = LayerAllocator()
    var budgets: [Int: DownlinkBudget] = [:]
    /// The budgets of the last report, bit/s, for a round between reports.
    var lastBudgets: [Int: Int] = [:]
    /// When the last report used was made.
    var lastReportAtMs: Int64 = 0
    /// Bit/s per source, as the data plane measured it (``SourceReport/bitrateBps``).
    var rates: [UInt32: Int] = [:]
    /// Limits changed: for bandwidth, down and up, and at a subscriber's request.
    var fallbacks: UInt64 = 0
    var recoveries: UInt64 = 0
    var requestedChanges: UInt64 = 0
    /// Subscriptions per limit after the last round.
    var limited: [VideoBandwidthLimit: Int] = [:]
    /// What each dual-stream publisher last heard of its encodings' use (`onSubscribedLayersChanged`);
    /// a publication not in here is taken to have both in use, as a publisher starts.
    var layerUse: [LayerUseKey: SubscribedLayersChangedEvent] = [:]

    /// Takes a report if it is newer than the last: each source's rate, and the budgets of
    /// transports gone are forgotten. Returns false for a report already taken.
    mutating func take(_ report: MediaPlaneReport) -> Bool {
        guard report.generatedAtMs > lastReportAtMs else { return false }
        lastReportAtMs = report.generatedAtMs
        rates = report.sources.mapValues(\.bitrateBps)
        budgets = budgets.filter { report.transports[$0.key] != nil }
        return true
    }
}
