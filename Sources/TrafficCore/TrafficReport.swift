public import Foundation

/// The final report of a run: printed as text and written as JSON (`--report FILE`).
public struct TrafficReport: Sendable, Codable, Hashable {
    /// The tool's name and version.
    public var tool: String = "pkrelay-traffic"
    public var toolVersion: String
    public var scenario: String
    public var kind: String
    /// Scenario sizes (rooms, audience per room, subscribers ...).
    public var sizes: [String: Int]
    /// The video profile anchors published: resolution class, fps, kbps.
    public var video: VideoProfile
    public var relayURL: String
    /// The relay's version (`--relay-version`, or read from `pkrelay --version` when known), else `unknown`.
    public var relayVersion: String
    /// Wall-clock start (ISO 8601) and the measured duration in seconds.
    public var startedAt: String
    public var durationSeconds: Double
    /// Simulated clients (WebSocket connections) and received streams at the end of the run, and their peaks.
    public var clients: Int
    public var streams: Int
    public var packets: PacketTotals
    public var lossPercent: Double
    /// Packets per second received by simulated clients over the run, and Mbit/s.
    public var packetsPerSecondIn: Double
    public var packetsPerSecondOut: Double
    public var mbitPerSecondIn: Double
    public var mbitPerSecondOut: Double
    /// One-way latency publisher to subscriber, from the send timestamp in every packet.
    public var latencyMs: LatencySummary
    /// Forward/link setup time to first keyframe; nil when the scenario sets up none.
    public var setupToFirstKeyframeMs: SetupTimes?
    /// Control-request latency by method.
    public var controlLatencyMs: [String: LatencySummary]
    /// Errors by code: relay error codes as numbers, and the tool's own names (`timeout`, `connection-closed`, `srtp` ...).
    public var errors: [String: UInt64]
    public var thresholds: ThresholdResult
    /// The capacity search, with `--find-max`.
    public var capacity: CapacityResult?
    /// pk-cluster: each node's rooms, clients and (with its admin URL) packet rates.
    public var nodes: [NodeLoad]?
    /// One-way latency from the scheduled send time: ``latencyMs`` plus the tool's own lateness.
    public var latencyFromScheduleMs: LatencySummary?
    /// The generator processes' own load: one entry per process (several after a merge).
    public var generators: [GeneratorLoad] = []
    /// True when the traffic tool, not the relay, was the bound (``toolBoundReasons`` says why):
    /// its loss and latency then describe the tool as much as the relay.
    public var toolBound = false
    public var toolBoundReasons: [String] = []
    /// The relay's side of the window, with `--relay-metrics`.
    public var relay: RelayLoad?
    /// The histograms behind the percentiles, for `merge`.
    public var histograms: ReportHistograms?
    /// For one generator's share of a run: `K/N` (`--part`).
    public var part: String?
    /// For a merged report: how many reports it combines.
    public var mergedReports: Int?

    public init(
        toolVersion: String, scenario: String, kind: String, sizes: [String: Int], video: VideoProfile, relayURL: String, relayVersion: String,
        startedAt: String, durationSeconds: Double, clients: Int, streams: Int, packets: PacketTotals,
        latencyMs: LatencySummary, setupToFirstKeyframeMs: SetupTimes?, controlLatencyMs: [String: LatencySummary],
        errors: [String: UInt64], thresholds: ThresholdResult, capacity: CapacityResult? = nil, nodes: [NodeLoad]? = nil
    ) {
        self.nodes = nodes
        self.toolVersion = toolVersion
        self.scenario = scenario
        self.kind = kind
        self.sizes = sizes
        self.video = video
        self.relayURL = relayURL
        self.relayVersion = relayVersion
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.clients = clients
        self.streams = streams
        self.packets = packets
        self.lossPercent = packets.lossPercent
        let seconds = max(durationSeconds, 0.001)
        self.packetsPerSecondIn = Double(packets.received) / seconds
        self.packetsPerSecondOut = Double(packets.sent) / seconds
        self.mbitPerSecondIn = Double(packets.bytesReceived) * 8 / seconds / 1_000_000
        self.mbitPerSecondOut = Double(packets.bytesSent) * 8 / seconds / 1_000_000
        self.latencyMs = latencyMs
        self.setupToFirstKeyframeMs = setupToFirstKeyframeMs
        self.controlLatencyMs = controlLatencyMs
        self.errors = errors
        self.thresholds = thresholds
        self.capacity = capacity
    }

    /// What a search's end means, in one sentence.
    static func explain(_ bound: CapacityBound) -> String {
        switch bound {
        case .relay: "relay: the relay was saturated at the failing step, so the last passing load is its capacity"
        case .tool: "tool: the traffic tool ran out first; the relay's capacity is above the last passing load (add --workers or generator hosts)"
        case .neither:
            "neither: at the failing step the relay averaged below 0.9 of its cores and the tool was not bound; the limit is in bursts (a "
                + "frame fanned out to every subscriber at once), socket buffers or the network"
        case .unverified: "unverified: give --relay-metrics to tell whether the relay was saturated at the failing step"
        case .setup: "setup: the next load could not be set up"
        case .limit: "limit: every step passed up to --limit; the real maximum is higher"
        }
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The report as text for a terminal.
    public var text: String {
        func ms(_ value: Double) -> String { String(format: "%.2f", value) }
        func summary(_ s: LatencySummary) -> String {
            "p50 \(ms(s.p50)) p90 \(ms(s.p90)) p99 \(ms(s.p99)) p99.9 \(ms(s.p999)) max \(ms(s.max)) ms (n=\(s.count))"
        }
        var lines: [String] = []
        lines.append("== pkrelay-traffic report: \(scenario) (\(kind)) against \(relayURL), relay \(relayVersion)")
        lines.append(
            "sizes      " + sizes.keys.sorted().map { "\($0)=\(sizes[$0]!)" }.joined(separator: " ")
                + ", video \(video.resolution)@\(video.fps) \(video.kbps) kbps")
        lines.append("duration   \(String(format: "%.1f", durationSeconds)) s, clients \(clients), streams \(streams)")
        lines.append(
            "packets    out \(packets.sent) (\(String(format: "%.0f", packetsPerSecondOut))/s, \(String(format: "%.2f", mbitPerSecondOut)) "
                + "Mbit/s)  in \(packets.received) (\(String(format: "%.0f", packetsPerSecondIn))/s, \(String(format: "%.2f", mbitPerSecondIn)) Mbit/s)"
        )
        lines.append(
            "loss       \(String(format: "%.4f", lossPercent)) % (\(packets.lost) of \(packets.expected) expected; \(packets.duplicates) "
                + "duplicates, \(packets.late) late; NACKs sent \(packets.nacksSent), PLIs sent \(packets.plisSent); keyframe requests to "
                + "publishers \(packets.keyframeRequestsReceived)"
                + (packets.transportFeedbackSent + packets.transportFeedbackReceived > 0
                    ? "; transport-wide feedback sent \(packets.transportFeedbackSent), received \(packets.transportFeedbackReceived), "
                        + "\(packets.retransmissionsReceived) on retransmission streams)" : ")")
        )
        lines.append("latency    " + summary(latencyMs))
        if let fromSchedule = latencyFromScheduleMs { lines.append("scheduled  " + summary(fromSchedule) + " (from the scheduled send time)") }
        for generator in generators {
            lines.append(
                "generator  \(generator.host): \(generator.threads) media thread(s), busiest "
                    + "\(String(format: "%.2f", generator.busiestThreadShare)) of a core, "
                    + "process \(String(format: "%.2f", generator.processShare)) of \(generator.cores) core(s), "
                    + "\(String(format: "%.2f", generator.cpuMicrosecondsPerPacket)) µs CPU per packet, "
                    + "send lateness p99 \(ms(generator.sendLatenessMs.p99)) ms")
        }
        if let relay {
            lines.append(
                "relay      \(String(format: "%.2f", relay.coreShare)) of \(relay.cores) core(s) (busiest media thread "
                    + "\(String(format: "%.2f", relay.busiestMediaThreadShare))), "
                    + "\(String(format: "%.0f", relay.packetsOutPerCoreSecond)) packets out per core-second, "
                    + "\(String(format: "%.2f", relay.cpuMicrosecondsPerPacket)) µs CPU per packet, "
                    + "drops " + (relay.drops.isEmpty ? "none" : relay.drops.keys.sorted().map { "\($0)=\(relay.drops[$0]!)" }.joined(separator: " ")))
        }
        if toolBound { lines.append("TOOL-BOUND " + toolBoundReasons.joined(separator: "; ")) }
        if let setup = setupToFirstKeyframeMs {
            lines.append("setup      \(setup.via) to first keyframe: " + summary(setup.latency) + (setup.timedOut > 0 ? ", \(setup.timedOut) timed out" : ""))
        }
        for node in nodes ?? [] {
            var line = "node       \(node.relayURL): rooms \(node.rooms), clients \(node.clients)"
            if let packetsIn = node.packetsPerSecondIn, let packetsOut = node.packetsPerSecondOut {
                line += ", relay packets in \(String(format: "%.0f", packetsIn))/s out \(String(format: "%.0f", packetsOut))/s"
            }
            lines.append(line)
        }
        for method in controlLatencyMs.keys.sorted() {
            lines.append("control    \(method.padding(toLength: 26, withPad: " ", startingAt: 0)) " + summary(controlLatencyMs[method]!))
        }
        lines.append("errors     " + (errors.isEmpty ? "none" : errors.keys.sorted().map { "\($0)=\(errors[$0]!)" }.joined(separator: " ")))
        if let capacity {
            for step in capacity.steps {
                let shares =
                    (step.relayShare.map { ", relay \(String(format: "%.2f", $0))" } ?? "")
                    + (step.toolShare.map { ", tool \(String(format: "%.2f", $0))" } ?? "")
                lines.append(
                    "find-max   load \(step.load): streams \(step.streams), \(String(format: "%.0f", step.packetsPerSecond)) pkt/s, loss "
                        + "\(String(format: "%.4f", step.lossPercent)) %, p99 \(ms(step.p99Ms)) ms\(shares): "
                        + "\(step.passed ? "pass" : "FAIL (\(step.reason ?? ""))")"
                )
            }
            if let last = capacity.lastPassing {
                lines.append("capacity   last passing load \(last.load) (streams \(last.streams), \(String(format: "%.0f", last.packetsPerSecond)) pkt/s)")
            } else {
                lines.append("capacity   no load passed")
            }
            lines.append("ended by   " + Self.explain(capacity.endedBy))
        }
        lines.append("verdict    " + (thresholds.passed ? "pass" : "FAIL: " + thresholds.violations.joined(separator: "; ")))
        return lines.joined(separator: "\n")
    }
}
