import Foundation
import PKRelayServer
import Testing

/// Short runs of each `pkrelay-traffic` scenario against a relay started by the test: the
/// built tool runs as a subprocess and its JSON report is checked.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct TrafficToolEndToEndTests {
    /// The `pkrelay-traffic` executable built beside the test bundle.
    static var executable: URL? {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
            .flatMap { [$0, $0.deletingLastPathComponent()] }
            .map { $0.appendingPathComponent("pkrelay-traffic") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the tool with `arguments` and returns its exit status, the JSON report and stdout+stderr.
    static func runTool(_ arguments: [String]) async throws -> (Int32, [String: Any]?, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-traffic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let reportURL = directory.appendingPathComponent("report.json")
        let (status, text) = try await runCommand(["run", "--quiet", "--report", reportURL.path] + arguments)
        let report = (try? Data(contentsOf: reportURL)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        return (status, report, text)
    }

    /// Runs the tool with a full command line and returns its exit status and stdout+stderr.
    static func runCommand(_ arguments: [String]) async throws -> (Int32, String) {
        guard let executable else {
            Issue.record("pkrelay-traffic was not built beside the tests (swift build --build-tests builds it)")
            return (-1, "")
        }
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-traffic-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                Issue.record("pkrelay-traffic did not finish within 60 s")
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        try? output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text)
    }

    /// Checks the fields every report has and that media flowed without loss.
    static func checkReport(_ report: [String: Any]?, scenario: String, output: String) throws {
        let report = try #require(report, "no report; output: \(output)")
        #expect(report["scenario"] as? String == scenario)
        let packets = try #require(report["packets"] as? [String: Any])
        #expect((packets["sent"] as? Int ?? 0) > 0, "\(output)")
        #expect((packets["received"] as? Int ?? 0) > 0, "\(output)")
        let latency = try #require(report["latencyMs"] as? [String: Any])
        #expect((latency["count"] as? Int ?? 0) > 0)
        #expect(latency["p99"] is Double)
        #expect((report["controlLatencyMs"] as? [String: Any])?["joinRoom"] != nil)
    }

    @Test func pkShowroomLinks() async throws {
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", "pk-showroom", "--relay", relay.controlURL, "--duration", "3s", "--rooms", "2", "--audience", "2",
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "pk-showroom", output: output)
            let setup = try #require(report?["setupToFirstKeyframeMs"] as? [String: Any])
            #expect(((setup["latency"] as? [String: Any])?["count"] as? Int) == 2, "\(output)")
            // Each of the 4 viewers receives its own anchor and the linked one: audio and video of both.
            #expect(report?["streams"] as? Int == 16, "\(output)")
        }
    }

    @Test func fanout() async throws {
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "3s", "--subscribers", "4", "--max-loss", "5",
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "fanout", output: output)
            #expect(report?["streams"] as? Int == 8, "\(output)")
        }
    }

    /// `--transport-cc`: the tool's subscribers send transport-wide feedback, which drives the
    /// relay's estimates; its publisher hears the relay's feedback; probes arrive on the
    /// retransmission streams and are neither streams nor latency samples. The publisher paces
    /// its frames (`--pace-publishers`), and every frame still arrives whole.
    @Test func fanoutWithTransportWideFeedback() async throws {
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "3s", "--subscribers", "4", "--max-loss", "0", "--transport-cc",
                "--pace-publishers",
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "fanout", output: output)
            #expect(report?["streams"] as? Int == 8, "retransmission streams are not counted as streams: \(output)")
            let packets = try #require(report?["packets"] as? [String: Any])
            #expect((packets["transportFeedbackSent"] as? Int ?? 0) >= 4 * 10, "about 10 a second per subscriber: \(output)")
            #expect((packets["transportFeedbackReceived"] as? Int ?? 0) >= 10, "\(output)")
            #expect(output.contains("transport-wide feedback sent"), "\(output)")
            // The relay read them: its counter reaches /metrics with its next media report.
            var read: UInt64 = 0
            for _ in 0..<30 {
                read = try await relay.metric("pkrelay_transport_feedback_received_total")
                if read >= 4 * 10 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(read >= 4 * 10, "the relay read \(read) transport-wide feedback packets")
        }
    }

    /// Browser-shaped viewers: each answers the relay's offer, checks ICE, runs DTLS and
    /// receives SRTP on the relay's WebRTC ports; with the tests' two shards and
    /// media.spreadRoomAfter 0 they sit on both, and every one is timed to its first keyframe.
    @Test func fanoutWithWebRTCViewers() async throws {
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "3s", "--subscribers", "4", "--max-loss", "0", "--transport",
                "webrtc", "--transport-cc", "--setup-width", "2",
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "fanout", output: output)
            let packets = try #require(report?["packets"] as? [String: Any])
            #expect((packets["undecryptable"] as? Int ?? -1) == 0, "\(output)")
            #expect((packets["transportFeedbackSent"] as? Int ?? 0) >= 4 * 10, "the viewers negotiated transport-cc in SDP: \(output)")
            let setup = try #require(report?["setupToFirstKeyframeMs"] as? [String: Any], "\(output)")
            #expect(setup["via"] as? String == "a viewer's arrival")
            #expect((setup["latency"] as? [String: Any])?["count"] as? Int == 4, "every viewer's first keyframe timed: \(output)")
            let errors = report?["errors"] as? [String: Any] ?? [:]
            #expect(errors.isEmpty, "\(output)")
        }
    }

    @Test func churn() async throws {
        // A quick pace, so that forwards and links both start and stop within the run.
        let scenario = FileManager.default.temporaryDirectory.appendingPathComponent("churn-\(UUID().uuidString).yaml")
        try """
        name: churn
        kind: churn
        churn: {stayMinSeconds: 1, stayMaxSeconds: 2, forwardOnSeconds: 1, forwardOffSeconds: 0.5, linkOnSeconds: 1, linkOffSeconds: 0.5}
        """.write(to: scenario, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scenario) }
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", scenario.path, "--relay", relay.controlURL, "--duration", "5s", "--rooms", "2", "--audience", "2",
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "churn", output: output)
            let control = try #require(report?["controlLatencyMs"] as? [String: Any])
            for method in ["startForwardStreamToRooms", "stopForwardStreamToRooms", "connectOtherRoom", "disconnectOtherRoom", "leaveRoom"] {
                #expect(control[method] != nil, "no \(method) in \(output)")
            }
            #expect((report?["setupToFirstKeyframeMs"] as? [String: Any])?["via"] as? String == "forward+link")
            let errors = report?["errors"] as? [String: Any] ?? [:]
            #expect(errors.isEmpty, "\(output)")
        }
    }

    /// `idle` holds its sessions: the relay counts every one, joined to rooms, until they leave.
    @Test func idleSessionsAreHeldThenClosed() async throws {
        try await TestRelay.with { relay in
            let running = Task { try await Self.runCommand(["idle", "--relay", relay.controlURL, "--sessions", "12", "--rooms", "3", "--hold", "3s"]) }
            let held = try await Self.waitForStats(relay) { $0["connections"] as? Int == 12 && $0["users"] as? Int == 12 }
            #expect(held["connections"] as? Int == 12 && held["users"] as? Int == 12 && held["rooms"] as? Int == 3, "\(held)")
            let (status, output) = try await running.value
            #expect(status == 0, "\(output)")
            #expect(output.contains("ready: 12 sessions open, joined to 3 rooms"), "\(output)")
            let left = try await Self.waitForStats(relay) { $0["connections"] as? Int == 0 }
            #expect(left["connections"] as? Int == 0 && left["rooms"] as? Int == 0, "\(left)")
        }
    }

    /// Polls the relay's admin stats until `condition` holds (or ten seconds pass); the last answer.
    static func waitForStats(_ relay: TestRelay, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let reply = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken(), body: nil)
            let stats = reply.json ?? [:]
            if condition(stats) || ContinuousClock.now > deadline { return stats }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func unreachableRelayAndExceededThresholdsExitNonZero() async throws {
        let (unreachable, _, output) = try await Self.runTool(["--scenario", "fanout", "--relay", "ws://127.0.0.1:1/rtc", "--duration", "1s"])
        #expect(unreachable == 2, "\(output)")
        try await TestRelay.with { relay in
            // No real relay delivers under 1 µs at p99: the threshold must fail the run.
            let (status, report, output) = try await Self.runTool([
                "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "2s", "--subscribers", "1", "--max-p99", "0.001",
            ])
            #expect(status == 1, "\(output)")
            #expect(((report?["thresholds"] as? [String: Any])?["violations"] as? [String])?.isEmpty == false)
        }
    }

    /// Two generator processes share one run: each takes whole PK pairs, and their reports are
    /// merged (histograms added). The relay's side comes from its /metrics.
    @Test func twoWorkersShareARunAndTheRelaySideIsReported() async throws {
        try await TestRelay.with { relay in
            let metrics = "http://127.0.0.1:\(relay.ports.admin)/metrics"
            let (status, report, output) = try await Self.runTool([
                "--scenario", "pk-showroom", "--relay", relay.controlURL, "--duration", "3s", "--rooms", "4", "--audience", "1",
                "--workers", "2", "--threads", "1", "--relay-metrics", metrics,
            ])
            #expect(status == 0, "\(output)")
            try Self.checkReport(report, scenario: "pk-showroom", output: output)
            #expect(report?["mergedReports"] as? Int == 2, "\(output)")
            #expect((report?["generators"] as? [[String: Any]])?.count == 2, "\(output)")
            // Four rooms, one viewer each, every viewer receiving audio and video of two anchors.
            #expect(report?["streams"] as? Int == 16, "\(output)")
            #expect(report?["clients"] as? Int == 8, "\(output)")
            let setup = try #require(report?["setupToFirstKeyframeMs"] as? [String: Any])
            #expect(((setup["latency"] as? [String: Any])?["count"] as? Int) == 4, "\(output)")
            let histograms = try #require(report?["histograms"] as? [String: Any])
            #expect(histograms["latency"] != nil && histograms["sendLateness"] != nil)
            let relaySide = try #require(report?["relay"] as? [String: Any], "\(output)")
            #expect((relaySide["cpuSeconds"] as? Double ?? 0) > 0, "\(relaySide)")
            #expect((relaySide["packetsPerSecondOut"] as? Double ?? 0) > 0, "\(relaySide)")
            #expect(relaySide["relayBound"] is Bool)
            #expect(output.contains("ended by") == false)
        }
    }

    /// Generators on several hosts each run `--part K/N`; `merge` combines their reports.
    @Test func partsRunSeparatelyAndMerge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestRelay.with { relay in
            let paths = (0..<2).map { directory.appendingPathComponent("part-\($0).json").path }
            async let first = Self.runCommand([
                "run", "--quiet", "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "2s", "--subscribers", "3", "--part", "0/2", "--report",
                paths[0],
            ])
            async let second = Self.runCommand([
                "run", "--quiet", "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "2s", "--subscribers", "3", "--part", "1/2", "--report",
                paths[1],
            ])
            let (a, b) = try await (first, second)
            #expect([a.0, b.0] == [0, 0], "\(a.1)\n\(b.1)")
            let merged = directory.appendingPathComponent("merged.json")
            let (status, output) = try await Self.runCommand(["merge", paths[0], paths[1], "--report", merged.path])
            #expect(status == 0, "\(output)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: merged)) as? [String: Any])
            // Part 0 ran the anchor and subscribers 0 and 2, part 1 subscriber 1: three subscribers, two streams each.
            #expect(report["streams"] as? Int == 6, "\(output)")
            #expect(report["mergedReports"] as? Int == 2)
            let parts = try [0, 1].map {
                try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: paths[$0]))) as? [String: Any])
            }
            let received = parts.map { (($0["packets"] as? [String: Any])?["received"] as? Int) ?? 0 }
            #expect(((report["packets"] as? [String: Any])?["received"] as? Int) == received.reduce(0, +))
            #expect(received.allSatisfy { $0 > 0 }, "\(received)")
            let (refused, refusal) = try await Self.runCommand(["merge", paths[0], directory.path + "/missing.json"])
            #expect(refused == 3, "\(refusal)")
        }
    }

    /// A capacity search whose step was tool-bound says so and exits 4, never naming that load
    /// the relay's capacity. (A lateness limit of 0 ms makes every step tool-bound.)
    @Test func aToolBoundSearchExitsWithItsOwnStatus() async throws {
        try await TestRelay.with { relay in
            let (status, report, output) = try await Self.runTool([
                "--scenario", "fanout", "--relay", relay.controlURL, "--duration", "1s", "--subscribers", "1", "--find-max", "--step", "1",
                "--limit", "3", "--max-send-lateness", "0",
            ])
            #expect(status == 4, "\(output)")
            let capacity = try #require(report?["capacity"] as? [String: Any], "\(output)")
            #expect(capacity["endedBy"] as? String == "tool")
            #expect(capacity["lastPassing"] == nil)
            #expect((capacity["steps"] as? [[String: Any]])?.first?["toolBound"] as? Bool == true)
            #expect(report?["toolBound"] as? Bool == true)
            #expect(output.contains("ended by   tool"), "\(output)")
        }
    }
}
