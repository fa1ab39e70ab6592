import Foundation
import Testing

@testable import TrafficCore

/// The JSON report's shape: the fields CI scripts read.
struct TrafficReportTests {
    func sample() -> TrafficReport {
        var packets = PacketTotals()
        packets.sent = 1000
        packets.bytesSent = 1_000_000
        packets.received = 1990
        packets.bytesReceived = 1_990_000
        packets.expected = 2000
        packets.lost = 10
        var latency = LatencyRecorder()
        for value in 1...100 { latency.record(milliseconds: Double(value) / 10) }
        var search = CapacitySearch(start: 2, step: 2, limit: 4)
        search.record(streams: 4, packetsPerSecond: 100, lossPercent: 0, p99Ms: 1)
        search.record(streams: 8, packetsPerSecond: 200, lossPercent: 1, p99Ms: 1)
        return TrafficReport(
            toolVersion: "0.1.0", scenario: "pk-showroom", kind: "pk-showroom", sizes: ["rooms": 2, "audiencePerRoom": 5],
            video: VideoProfile(), relayURL: "ws://127.0.0.1:7700/rtc", relayVersion: "0.1.0", startedAt: "2025-01-01T00:00:00Z",
            durationSeconds: 10, clients: 12, streams: 24, packets: packets, latencyMs: latency.summary,
            setupToFirstKeyframeMs: SetupTimes(via: "link", latency: latency.summary, timedOut: 0),
            controlLatencyMs: ["joinRoom": latency.summary], errors: ["-1000": 1, "timeout": 2],
            thresholds: ThresholdResult.evaluate(lossPercent: packets.lossPercent, p99Ms: 9.9, maxLossPercent: 0.1, maxP99Ms: nil),
            capacity: search.result)
    }

    @Test func jsonHasTheDocumentedFields() throws {
        let report = sample()
        let object = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        for key in [
            "tool", "toolVersion", "scenario", "kind", "sizes", "video", "relayURL", "relayVersion", "startedAt", "durationSeconds",
            "clients", "streams", "packets", "lossPercent", "packetsPerSecondIn", "packetsPerSecondOut", "mbitPerSecondIn",
            "mbitPerSecondOut", "latencyMs", "setupToFirstKeyframeMs", "controlLatencyMs", "errors", "thresholds", "capacity",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let latency = try #require(object["latencyMs"] as? [String: Any])
        #expect(Set(latency.keys) == ["count", "p50", "p90", "p99", "p999", "max"])
        let packets = try #require(object["packets"] as? [String: Any])
        for key in ["sent", "bytesSent", "received", "bytesReceived", "expected", "lost", "duplicates", "nacksSent", "plisSent"] {
            #expect(packets[key] != nil, "missing packets.\(key)")
        }
        #expect(object["lossPercent"] as? Double == 0.5)
        #expect(object["packetsPerSecondIn"] as? Double == 199)
        #expect((object["errors"] as? [String: Any])?["timeout"] as? Int == 2)
        let thresholds = try #require(object["thresholds"] as? [String: Any])
        #expect((thresholds["violations"] as? [String])?.count == 1)
        let capacity = try #require(object["capacity"] as? [String: Any])
        #expect((capacity["lastPassing"] as? [String: Any])?["load"] as? Int == 2)
        #expect((capacity["steps"] as? [Any])?.count == 2)
        let sizes = try #require(object["sizes"] as? [String: Int])
        #expect(sizes["rooms"] == 2)
    }

    @Test func roundTripsAndPrints() throws {
        let report = sample()
        let decoded = try JSONDecoder().decode(TrafficReport.self, from: report.jsonData())
        #expect(decoded == report)
        #expect(report.text.contains("verdict    FAIL"))
        #expect(report.text.contains("capacity   last passing load 2"))
    }

    @Test func thresholdsPassWithoutLimits() {
        #expect(ThresholdResult.evaluate(lossPercent: 50, p99Ms: 5000, maxLossPercent: nil, maxP99Ms: nil).passed)
        #expect(!ThresholdResult.evaluate(lossPercent: 0, p99Ms: 51, maxLossPercent: nil, maxP99Ms: 50).passed)
    }
}
