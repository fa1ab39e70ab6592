import CoreMetrics
import Prometheus
import Protocol
import RoomEngine
import Synchronization

/// One relay's metrics: a swift-prometheus registry fed through swift-metrics. Control-plane
/// events (requests, joins, leaves, forward states, links, invitations, first keyframes) are
/// counted as they happen; figures that live elsewhere (the rooms, the media plane's report,
/// webhook delivery, limits, the cluster lease) are copied in at each scrape, counters by their
/// growth since the last one. /metrics is the registry's exposition.
final class RelayMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: RelayMetricsFactory
    /// The last value copied into each mirrored counter series, by series key.
    private let mirrored = Mutex<[String: Double]>([:])

    init() {
        factory = RelayMetricsFactory(registry: registry)
        // Families whose series should read 0 before the first event, so that alerts and rates
        // can be written before anything happened.
        _ = Counter(label: RelayMetric.usersJoined.name, factory: factory)
        for reason in DepartureReason.allCases { _ = Counter(label: RelayMetric.usersLeft.name, dimensions: [("reason", reason.rawValue)], factory: factory) }
        for state in Self.forwardStateNames.values {
            _ = Counter(label: RelayMetric.forwardStateChanges.name, dimensions: [("state", state)], factory: factory)
        }
        _ = Counter(label: RelayMetric.linksConnected.name, factory: factory)
        for reason in Self.linkEndReasons { _ = Counter(label: RelayMetric.linksEnded.name, dimensions: [("reason", reason)], factory: factory) }
        for outcome in Self.invitationOutcomes { _ = Counter(label: RelayMetric.invitations.name, dimensions: [("outcome", outcome)], factory: factory) }
        _ = Timer(label: RelayMetric.firstKeyframeSeconds.name, factory: factory)
    }

    /// The link end reasons of PROTOCOL.md and the final outcomes of an invitation, shown at 0
    /// from the start.
    static let linkEndReasons = ["disconnect", "left", "kicked", "roomDismissed", "peerLeft", "interrupted", "serverShutdown", "peerUnreachable"]
    static let invitationOutcomes = ["accepted", "refused", "canceled", "failed"]
    /// The bounds, in bits per second, of `pkrelay_subscriber_estimates_at_most`: a phone's
    /// audio-only floor up to a full 1080p layer.
    static let estimateBounds = [150_000, 300_000, 500_000, 1_000_000, 2_000_000, 5_000_000]

    static let forwardStateNames: [ForwardState: String] = [.idle: "idle", .success: "success", .failure: "failure"]

    /// A control request answered with `code` (0 for success) after `nanoseconds` of work.
    func requestAnswered(method: String, code: Int) {
        Counter(label: RelayMetric.controlRequests.name, dimensions: [("method", method), ("code", String(code))], factory: factory).increment()
    }

    /// Time spent handling a request of a known method.
    func requestHandled(method: String, nanoseconds: Int64) {
        Timer(label: RelayMetric.controlRequestSeconds.name, dimensions: [("method", method)], factory: factory).recordNanoseconds(nanoseconds)
    }

    /// Counts one domain event of the room engine.
    func count(_ event: DomainEvent) {
        func increment(_ metric: RelayMetric, _ dimensions: [(String, String)] = []) {
            Counter(label: metric.name, dimensions: dimensions, factory: factory).increment()
        }
        switch event {
        case .userJoined: increment(.usersJoined)
        case .userLeft(_, _, _, let reason): increment(.usersLeft, [("reason", reason.rawValue)])
        case .forwardStateChanged(let change):
            if let state = Self.forwardStateNames[change.state] { increment(.forwardStateChanges, [("state", state)]) }
        case .linkConnected: increment(.linksConnected)
        case .linkEnded(_, let reason): increment(.linksEnded, [("reason", reason)])
        case .invitationEnded(let outcome): increment(.invitations, [("outcome", OperatorFeed.outcomeName(outcome.state))])
        case .firstKeyframe(_, let elapsedMs):
            Timer(label: RelayMetric.firstKeyframeSeconds.name, factory: factory).recordMilliseconds(max(0, elapsedMs))
        case .roomCreated, .roomDismissed, .roomEnded, .userRoleChanged, .streamPublished, .streamUnpublished: break
        }
    }

    /// Sets a gauge series.
    func set(_ metric: RelayMetric, _ dimensions: [(String, String)] = [], to value: Double) {
        Gauge(label: metric.name, dimensions: dimensions, factory: factory).record(value)
    }

    /// Brings a counter series up to `total`, a lifetime count kept elsewhere. A total that went
    /// down (it never should) is taken as the new starting point rather than subtracted.
    func mirror(_ metric: RelayMetric, _ dimensions: [(String, String)] = [], total: UInt64) {
        let growth = mirrored.withLock { last -> UInt64 in
            let key = Self.seriesKey(metric, dimensions)
            let previous = UInt64(last[key] ?? 0)
            last[key] = Double(total)
            return total >= previous ? total - previous : 0
        }
        Counter(label: metric.name, dimensions: dimensions, factory: factory).increment(by: Int64(clamping: growth))
    }

    /// `mirror` for a total in fractions (CPU seconds).
    func mirror(_ metric: RelayMetric, _ dimensions: [(String, String)] = [], total: Double) {
        let growth = mirrored.withLock { last -> Double in
            let key = Self.seriesKey(metric, dimensions)
            let previous = last[key] ?? 0
            last[key] = total
            return total >= previous ? total - previous : 0
        }
        FloatingPointCounter(label: metric.name, dimensions: dimensions, factory: factory).increment(by: growth)
    }

    private static func seriesKey(_ metric: RelayMetric, _ dimensions: [(String, String)]) -> String {
        dimensions.reduce(metric.name) { $0 + "\u{0}" + $1.0 + "=" + $1.1 }
    }

    /// The exposition text of every family registered so far, families in name order and the
    /// series of counters and gauges in label order (the registry writes both in hash order,
    /// which changes from run to run and makes the page hard to read and to diff).
    func exposition() -> String {
        var blocks: [(name: Substring, lines: [Substring])] = []
        for line in registry.emitToString().split(separator: "\n") {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if blocks.last?.name != name { blocks.append((name, [])) }
            }
            if blocks.isEmpty { blocks.append(("", [])) }
            blocks[blocks.count - 1].lines.append(line)
        }
        blocks.sort { $0.name < $1.name }
        // Series of a counter or gauge in label order too; a histogram's lines stay as written,
        // each series' buckets in ascending order.
        for index in blocks.indices where !blocks[index].lines.contains(where: { $0.hasPrefix("# TYPE ") && $0.hasSuffix(" histogram") }) {
            let comments = blocks[index].lines.filter { $0.hasPrefix("#") }
            blocks[index].lines = comments + blocks[index].lines.filter { !$0.hasPrefix("#") }.sorted()
        }
        return blocks.flatMap(\.lines).joined(separator: "\n") + "\n"
    }
}
