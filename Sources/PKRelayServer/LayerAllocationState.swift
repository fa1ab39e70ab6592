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
        var decayed: [UInt32: (bps: Double, atMs: Int64)] = [:]
        for (id, source) in report.sources {
            let peak = peaks[id].map { $0.bps * pow(0.5, Double(report.generatedAtMs - $0.atMs) / Self.rateHalfLifeMs) } ?? 0
            decayed[id] = (max(Double(source.bitrateBps), peak), report.generatedAtMs)
        }
        peaks = decayed
        rates = decayed.mapValues { Int($0.bps) }
        budgets = budgets.filter { report.transports[$0.key] != nil }
        delivered = report.transports.mapValues(\.sendBitrateBps)
        return true
    }
}
