import Foundation
import PKRelayClient
import Protocol
import Testing

@testable import PKRelayServer

/// /metrics parsed as Prometheus text: every sample belongs to a typed family, the named families
/// are there, histograms are consistent, and the figures follow what happens. /healthz and
/// /readyz answer.
@Suite(.timeLimit(.minutes(1)))
struct MetricsExpositionTests {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Parses the exposition text; records an issue for every malformed line.
    static func parse(_ text: String) -> (types: [String: String], samples: [Sample]) {
        var types: [String: String] = [:]
        var samples: [Sample] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { types[String(parts[2])] = String(parts[3]) } else { Issue.record("bad TYPE line: \(line)") }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                Issue.record("bad sample line: \(line)")
                continue
            }
            let series = line[..<space]
            var name = String(series)
            var labels: [String: String] = [:]
            if let brace = series.firstIndex(of: "{") {
                name = String(series[..<brace])
                guard series.hasSuffix("}") else {
                    Issue.record("bad labels: \(line)")
                    continue
                }
                for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    guard kv.count == 2, kv[1].hasPrefix("\""), kv[1].hasSuffix("\"") else {
                        Issue.record("bad label: \(line)")
                        continue
                    }
                    labels[String(kv[0])] = String(kv[1].dropFirst().dropLast())
                }
            }
            #expect(name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil, "bad metric name \(name)")
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return (types, samples)
    }

    static func family(of sample: String, types: [String: String]) -> String? {
        if types[sample] != nil { return sample }
        for suffix in ["_bucket", "_sum", "_count"] where sample.hasSuffix(suffix) {
            let base = String(sample.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return nil
    }

    @Test func namedFamiliesAreExposedAndConsistent() async throws {
        try await TestRelay.with { relay in
            let alice = try await relay.join(room: "m-1", user: "alice")
            let bob = try await relay.join(room: "m-1", user: "bob")
            let (types, samples) = Self.parse(try await AdminHTTPClient.text(port: relay.ports.admin, path: "/metrics"))
            for sample in samples {
                #expect(Self.family(of: sample.name, types: types) != nil, "\(sample.name) has no TYPE")
            }
            let expected: [String: String] = [
                "pkrelay_rooms": "gauge", "pkrelay_users": "gauge", "pkrelay_streams": "gauge", "pkrelay_subscriptions": "gauge",
                "pkrelay_forwards": "gauge", "pkrelay_links": "gauge", "pkrelay_connections": "gauge",
                "pkrelay_packets_in_total": "counter", "pkrelay_bytes_in_total": "counter",
                "pkrelay_packets_out_total": "counter", "pkrelay_bytes_out_total": "counter",
                "pkrelay_media_send_calls_total": "counter", "pkrelay_media_send_messages_total": "counter",
                "pkrelay_media_gso_fallbacks_total": "counter", "pkrelay_media_gso": "gauge",
                "pkrelay_media_receive_messages_total": "counter", "pkrelay_media_gro": "gauge",
                "pkrelay_media_send_only_sockets": "gauge",
                "pkrelay_dropped_packets_total": "counter", "pkrelay_srtp_failures_total": "counter",
                "pkrelay_keyframe_requests_received_total": "counter", "pkrelay_keyframe_requests_sent_total": "counter",
                "pkrelay_nacks_received_total": "counter",
                "pkrelay_forward_first_keyframe_seconds": "histogram", "pkrelay_control_request_seconds": "histogram",
                "pkrelay_webhook_deliveries_total": "counter", "pkrelay_webhook_failures_total": "counter",
                "pkrelay_webhook_dropped_total": "counter", "pkrelay_webhook_queue_depth": "gauge",
                "process_cpu_seconds_total": "counter", "pkrelay_cpu_cores": "gauge", "pkrelay_media_thread_cpu_seconds_total": "counter",
            ]
            for (name, type) in expected { #expect(types[name] == type, "\(name) should be a \(type)") }
            func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
                samples.first { $0.name == name && $0.labels == labels }?.value
            }
            #expect(value("pkrelay_rooms") == 1)
            #expect(value("pkrelay_users") == 2)
            #expect(value("pkrelay_connections") == 2)
            #expect(samples.filter { $0.name == "pkrelay_dropped_packets_total" }.allSatisfy { $0.labels["reason"] != nil })
            #expect(samples.contains { $0.name == "pkrelay_dropped_packets_total" })
            // What pkrelay-traffic --relay-metrics reads to tell a saturated relay.
            #expect((value("process_cpu_seconds_total") ?? 0) > 0)
            #expect((value("pkrelay_cpu_cores") ?? 0) >= 1)
            let threads = samples.filter { $0.name == "pkrelay_media_thread_cpu_seconds_total" }
            #expect(threads.compactMap { $0.labels["thread"].flatMap { Int($0) } }.sorted() == Array(0..<threads.count))
            #expect(!threads.isEmpty && threads.allSatisfy { $0.value >= 0 })
            // The control-request histogram counted both joins; buckets never decrease and +Inf is the count.
            let joins = samples.filter { $0.name == "pkrelay_control_request_seconds_bucket" && $0.labels["method"] == "joinRoom" }
            #expect(!joins.isEmpty)
            #expect(joins.map(\.value) == joins.map(\.value).sorted())
            #expect(joins.last?.labels["le"] == "+Inf")
            #expect(joins.last?.value == value("pkrelay_control_request_seconds_count", ["method": "joinRoom"]))
            #expect(value("pkrelay_control_request_seconds_count", ["method": "joinRoom"]) == 2)
            let keyframe = samples.filter { $0.name == "pkrelay_forward_first_keyframe_seconds_bucket" }
            #expect(keyframe.last?.labels["le"] == "+Inf")

            #expect(try await AdminHTTPClient.text(port: relay.ports.admin, path: "/healthz") == "ok\n")
            #expect(try await AdminHTTPClient.text(port: relay.ports.admin, path: "/readyz") == "ready\n")
            await bob.close()
            try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_users") { $0 == 1 }
            await alice.close()
            try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_rooms") { $0 == 0 }
        }
    }
}

/// /metrics as Prometheus reads it: prometheus_client's parser accepts the whole text, every
/// family has help and a type, and the swift-metrics counters follow the requests.
@Suite(.timeLimit(.minutes(1)))
struct PrometheusParserTests {
    @Test func prometheusClientParsesEveryFamilyAndRequestsAreCountedByMethodAndCode() async throws {
        try await TestRelay.with { relay in
            let alice = try await relay.join(room: "p-1", user: "alice")
            let bob = try await relay.join(room: "p-1", user: "bob")
            // An error answer of a known method, and a method the relay does not know.
            await #expect(throws: ControlClientError.self) {
                let _: EmptyResult = try await bob.request("leaveRoom", ["roomId": "elsewhere"])
            }
            await #expect(throws: ControlClientError.self) {
                let _: EmptyResult = try await bob.request("launchRocket", EmptyResult())
            }
            let parsed = try await PrometheusTextCheck.parse(try await relay.metrics())
            #expect(parsed.problems.isEmpty, "\(parsed.problems)")
            var families: [String: PrometheusTextCheck.Family] = [:]
            for family in parsed.families { families[family.name] = family }
            for family in parsed.families {
                #expect(!family.help.isEmpty, "\(family.name) has no help")
                #expect(family.type != "unknown", "\(family.name) has no type")
            }
            // Every family the relay declares is exposed (the cluster's only on a cluster node).
            for metric in RelayMetric.all.map(\.name) where !metric.hasPrefix("pkrelay_cluster_") {
                let base = metric.hasSuffix("_total") ? String(metric.dropLast(6)) : metric
                #expect(families[base] != nil, "\(metric) is missing")
            }
            func value(_ sample: String, _ labels: [String: String] = [:]) -> Double? {
                parsed.families.flatMap(\.samples).first { $0.name == sample && $0.labels == labels }?.value
            }
            #expect(families["pkrelay_rooms"]?.type == "gauge")
            #expect(families["pkrelay_control_requests"]?.type == "counter")
            #expect(families["pkrelay_control_request_seconds"]?.type == "histogram")
            #expect(value("pkrelay_rooms") == 1)
            #expect(value("pkrelay_users") == 2)
            #expect(value("pkrelay_control_requests_total", ["method": "joinRoom", "code": "0"]) == 2)
            let leaves = parsed.families.first { $0.name == "pkrelay_control_requests" }?.samples.filter { $0.labels["method"] == "leaveRoom" } ?? []
            #expect(leaves.count == 1 && leaves.first?.labels["code"] != "0" && leaves.first?.value == 1, "\(leaves)")
            #expect(value("pkrelay_control_requests_total", ["method": "unknown", "code": "-32601"]) == 1)
            #expect(value("pkrelay_control_request_seconds_count", ["method": "joinRoom"]) == 2)
            #expect(value("pkrelay_users_joined_total") == 2)
            // Zeros before the first event, for every reason.
            #expect(value("pkrelay_users_left_total", ["reason": "left"]) == 0)
            #expect(value("pkrelay_forward_first_keyframe_seconds_count") == 0)
            await bob.close()
            try await AdminHTTPClient.waitForMetric(port: relay.ports.admin, "pkrelay_users") { $0 == 1 }
            let after = try await PrometheusTextCheck.parse(try await relay.metrics())
            let left = after.families.first { $0.name == "pkrelay_users_left" }?.samples.reduce(0) { $0 + $1.value }
            #expect(left == 1)
            await alice.close()
        }
    }
}
