import Foundation
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
    /// What each transport sent over the last report's window, bit/s.
    var delivered: [Int: Int] = [:]
    /// When the last report used was made.
    var lastReportAtMs: Int64 = 0
    /// Bit/s per source for the allocator: the data plane's measure (``SourceReport/bitrateBps``)
    /// or, when higher, its peak decayed by half every ``rateHalfLifeMs``. A publisher's encoder
    /// that has just shared its rate with a layer turned back on sends its top layer lower for a
    /// few seconds; priced at that, the top layer looked affordable under a cap it exceeds, and a
    /// viewer went up and straight back down.
    var rates: [UInt32: Int] = [:]
    var peaks: [UInt32: (bps: Double, atMs: Int64)] = [:]
    static let rateHalfLifeMs = 10_000.0
    /// Sources that sent and have been silent for ``stallAfterMs``, and sources that sent within
    /// ``flowingWithinMs``, as of the last report: a viewer of an encoding that stopped while a
    /// lower one flows is moved to the lower one. Two seconds, so a low frame rate or a
    /// keyframe's queueing is not taken for a stop.
    var stalled: Set<UInt32> = []
    var flowing: Set<UInt32> = []
    /// Each video source's coded size, as its last keyframe stated it.
    var sizes: [UInt32: (width: Int, height: Int)] = [:]
    static let stallAfterMs: Int64 = 2000
    static let flowingWithinMs: Int64 = 500
    /// Limits changed: for bandwidth, down and up, at a subscriber's request, and around an
    /// encoding its publisher stopped.
    var fallbacks: UInt64 = 0
    var recoveries: UInt64 = 0
    var requestedChanges: UInt64 = 0
    var publisherChanges: UInt64 = 0
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
        var decayed: [UInt32: (bps: Double, atMs: Int64)] = [:]
        for (id, source) in report.sources {
            let peak = peaks[id].map { $0.bps * pow(0.5, Double(report.generatedAtMs - $0.atMs) / Self.rateHalfLifeMs) } ?? 0
            decayed[id] = (max(Double(source.bitrateBps), peak), report.generatedAtMs)
        }
        peaks = decayed
        rates = decayed.mapValues { Int($0.bps) }
        stalled = Set(report.sources.filter { $0.value.packets > 0 && $0.value.idleMs >= Self.stallAfterMs }.keys)
        sizes = report.sources.filter { $0.value.frameWidth > 0 }.mapValues { ($0.frameWidth, $0.frameHeight) }
        flowing = Set(report.sources.filter { $0.value.packets > 0 && $0.value.idleMs < Self.flowingWithinMs }.keys)
        budgets = budgets.filter { report.transports[$0.key] != nil }
        delivered = report.transports.mapValues(\.sendBitrateBps)
        return true
    }
}
