extension TrafficReport {
    /// Combines the reports of generators that ran one scenario together (`--workers`, or the
    /// same tool on several hosts) into one report.
    ///
    /// Counts and errors are summed, histograms are added bucket by bucket (percentiles are never
    /// averaged), rates are the sum of each report's rates (their windows overlap), and the tool
    /// counts as the bound when any generator was, or when the generators on one host used its
    /// cores together. The relay's side is taken from the report whose window started last (all
    /// the others were already sending by then).
    ///
    /// - Throws: ``ReportMergeError`` when there is nothing to merge, the scenarios differ, or a
    ///   report lacks its histograms (written by a tool too old to merge).
    public static func merged(_ reports: [TrafficReport], rule: ToolBoundRule = ToolBoundRule()) throws -> TrafficReport {
        guard let first = reports.first else { throw ReportMergeError("no reports to merge") }
        for report in reports.dropFirst() where report.scenario != first.scenario || report.kind != first.kind {
            throw ReportMergeError("reports of different scenarios cannot be merged: \(first.scenario) (\(first.kind)) and \(report.scenario) (\(report.kind))")
        }
        var histograms: [ReportHistograms] = []
        for (position, report) in reports.enumerated() {
            guard let data = report.histograms else {
                throw ReportMergeError("report \(position + 1) has no histograms (written by pkrelay-traffic older than 0.2)")
            }
            histograms.append(data)
        }
        func mergedRecorder(_ pick: (ReportHistograms) -> HistogramData) -> LatencyRecorder {
            var recorder = LatencyRecorder()
            for data in histograms { recorder.add(LatencyRecorder(data: pick(data))) }
            return recorder
        }
        let latency = mergedRecorder(\.latency)
        let fromSchedule = mergedRecorder(\.latencyFromSchedule)
        let lateness = mergedRecorder(\.sendLateness)
        let setup = mergedRecorder(\.setupToFirstKeyframe)
        var control: [String: LatencyRecorder] = [:]
        for data in histograms {
            for (method, histogram) in data.control { control[method, default: LatencyRecorder()].add(LatencyRecorder(data: histogram)) }
        }
        var packets = PacketTotals()
        var errors: [String: UInt64] = [:]
        var clients = 0
        var streams = 0
        var setupTimedOut: UInt64 = 0
        for report in reports {
            packets.add(report.packets)
            for (code, count) in report.errors { errors[code, default: 0] &+= count }
            clients += report.clients
            streams += report.streams
            setupTimedOut &+= report.setupToFirstKeyframeMs?.timedOut ?? 0
        }
        let seconds = reports.map(\.durationSeconds).reduce(0, +) / Double(reports.count)
        let latencySummary = latency.summary
        let thresholds = ThresholdResult.evaluate(
            lossPercent: packets.lossPercent, p99Ms: latencySummary.p99, maxLossPercent: first.thresholds.maxLossPercent, maxP99Ms: first.thresholds.maxP99Ms)
        var merged = TrafficReport(
            toolVersion: first.toolVersion, scenario: first.scenario, kind: first.kind, sizes: first.sizes, video: first.video,
            relayURL: first.relayURL, relayVersion: first.relayVersion, startedAt: reports.map(\.startedAt).min() ?? first.startedAt,
            durationSeconds: seconds, clients: clients, streams: streams, packets: packets, latencyMs: latencySummary,
            setupToFirstKeyframeMs: first.setupToFirstKeyframeMs.map { SetupTimes(via: $0.via, latency: setup.summary, timedOut: setupTimedOut) },
            controlLatencyMs: control.mapValues(\.summary), errors: errors, thresholds: thresholds, capacity: nil,
            nodes: mergedNodes(reports))
        // Each generator measured its own window; the windows overlap, so the rates add up.
        merged.packetsPerSecondIn = reports.map(\.packetsPerSecondIn).reduce(0, +)
        merged.packetsPerSecondOut = reports.map(\.packetsPerSecondOut).reduce(0, +)
        merged.mbitPerSecondIn = reports.map(\.mbitPerSecondIn).reduce(0, +)
        merged.mbitPerSecondOut = reports.map(\.mbitPerSecondOut).reduce(0, +)
        merged.latencyFromScheduleMs = fromSchedule.summary
        merged.generators = reports.flatMap(\.generators)
        merged.relay = reports.filter { $0.relay != nil }.max { $0.startedAt < $1.startedAt }?.relay
        merged.histograms = ReportHistograms(
            latency: latency.data, latencyFromSchedule: fromSchedule.data, sendLateness: lateness.data, setupToFirstKeyframe: setup.data,
            control: control.mapValues(\.data))
        merged.mergedReports = reports.count
        var reasons = reports.flatMap(\.toolBoundReasons)
        for (host, shares) in Dictionary(grouping: merged.generators, by: \.host) where shares.count > 1 {
            let together = shares.map(\.processShare).reduce(0, +)
            if together >= rule.maxProcessShare {
                reasons.append(
                    "the \(shares.count) generators on \(host) used \(ToolBoundRule.format(together)) of its cores together (limit "
                        + "\(ToolBoundRule.format(rule.maxProcessShare)))"
                )
            }
        }
        merged.toolBoundReasons = reasons
        merged.toolBound = !reasons.isEmpty
        return merged
    }

    /// pk-cluster's nodes, summed by relay URL in first-seen order.
    static func mergedNodes(_ reports: [TrafficReport]) -> [NodeLoad]? {
        let all = reports.compactMap(\.nodes)
        guard !all.isEmpty else { return nil }
        var order: [String] = []
        var byURL: [String: NodeLoad] = [:]
        for node in all.joined() {
            guard var existing = byURL[node.relayURL] else {
                order.append(node.relayURL)
                byURL[node.relayURL] = node
                continue
            }
            existing.rooms += node.rooms
            existing.clients += node.clients
            existing.adminURL = existing.adminURL ?? node.adminURL
            // The relay's own rates are the node's, seen by each generator over nearly the same window.
            existing.packetsPerSecondIn = existing.packetsPerSecondIn ?? node.packetsPerSecondIn
            existing.packetsPerSecondOut = existing.packetsPerSecondOut ?? node.packetsPerSecondOut
            byURL[node.relayURL] = existing
        }
        return order.map { byURL[$0]! }
    }
}
