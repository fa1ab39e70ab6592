import ArgumentParser
import CSocketShims
import Foundation
import TrafficCore

/// `pkrelay-traffic run`: runs one scenario (or a capacity search) and reports.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a scenario against a relay.")

    @Option(help: "Scenario name (looked up as Config/scenarios/NAME.yaml, else built in: pk-showroom, pk-cluster, fanout, churn) or a YAML file path.")
    var scenario: String = "pk-showroom"

    @Option(help: "How long to measure after setup, e.g. 30s, 2m.")
    var duration: String = "30s"

    @Option(help: "The relay's control URL (default ws://127.0.0.1:7700/rtc); repeat it for each node of a cluster (pk-cluster).")
    var relay: [String] = []

    @Option(help: "pk-cluster: a node's admin URL (e.g. http://127.0.0.1:7711), repeated in --relay's order, for per-node packet rates.")
    var admin: [String] = []

    /// The relays given, or the default one.
    var relays: [String] { relay.isEmpty ? ["ws://127.0.0.1:7700/rtc"] : relay }

    @Option(help: "Write the final report as JSON to this file.")
    var report: String?

    @OptionGroup var key: KeyOptions

    @Option(help: "The relay's version, for the report (default: unknown).")
    var relayVersion: String = "unknown"

    @Option(help: "Local IPv4 address the simulated clients' sockets bind to and announce.")
    var localIP: String = "127.0.0.1"

    @Option(help: "Override: rooms (pk-showroom, churn).")
    var rooms: Int?

    @Option(help: "Override: audience members per room (pk-showroom, churn).")
    var audience: Int?

    @Option(help: "Override: subscribers (fanout).")
    var subscribers: Int?

    @Option(help: "Override: link (connectOtherRoom) or forward (startForwardStreamToRooms).")
    var pkMode: String?

    @Option(help: "Override: video resolution class, e.g. 1280x720.")
    var resolution: String?

    @Option(help: "Override: video frames per second.")
    var fps: Int?

    @Option(help: "Override: video bitrate in kbit/s.")
    var kbps: Int?

    @Option(help: "Exit with status 1 when loss exceeds this percentage.")
    var maxLoss: Double?

    @Option(help: "Exit with status 1 when p99 latency exceeds this many milliseconds.")
    var maxP99: Double?

    @Flag(help: "Raise the load step by step until loss > 0.1 % or p99 > 50 ms; report the last passing load.")
    var findMax = false

    @Option(help: "With --find-max: the load added per step (default from the scenario).")
    var step: Int?

    @Option(help: "With --find-max: the highest load tried (default from the scenario).")
    var limit: Int?

    @Flag(help: "No live line each second.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "The UDP offloads for the simulated clients' sockets: auto (GSO for what they send, GRO for what they receive, where the kernel "
                + "has them) or off (one datagram per message).")
    )
    var udpOffload = "auto"

    @Option(help: "Media threads of each generator process (default: the cores it may run on).")
    var threads: Int?

    @Option(help: "Generator processes to run on this host, each with its share of the scenario; their reports are merged.")
    var workers = 1

    @Option(help: "Run only part K of N of the scenario (K from 0), for generators on several hosts; merge their reports with `pkrelay-traffic merge`.")
    var part: String?

    @Option(
        help: ArgumentHelp(
            "The relay's metrics URL (e.g. http://127.0.0.1:7711/metrics): the report adds the relay's CPU, drops and packets per core, and "
                + "--find-max tells a saturated relay from other limits.")
    )
    var relayMetrics: String?

    @Flag(
        help: ArgumentHelp(
            "Transport-wide congestion control on every transport, as browsers negotiate it: publishers stamp transport-wide numbers and "
                + "hear the relay's feedback, subscribers send transport-wide feedback, so the relay estimates each subscriber's downlink "
                + "and paces what it sends."))
    var transportCC = false

    @Flag(
        help: ArgumentHelp(
            "pk-cluster: each room's audience joins every node in turn, starting with the room's own; the other nodes serve it as the "
                + "room's edges (run the relays with cluster.edges on), so one room's audience spreads over the cluster. fanout: the "
                + "publisher joins the first --relay, every subscriber one of the others in turn (its first keyframe timed from its join)."))
    var audienceOnEdges = false

    @Flag(
        help: ArgumentHelp(
            "Publishers pace their video at 2.5 times its bitrate, as a browser's pacer does, instead of sending each frame as one burst "
                + "as ffmpeg does. A paced packet's schedule is its pacer slot."))
    var pacePublishers = false

    @Option(
        help: ArgumentHelp(
            "How audience members reach the relay: srtp (an SRTP transport with keys over the control channel) or webrtc (as browsers do: "
                + "a receiving WebRTC transport, the relay's SDP offer answered, ICE, DTLS, then SRTP on the relay's WebRTC port)."))
    var transport: String = "srtp"

    @Option(help: "Audience members set up at a time: how fast the audience arrives (fanout times each one to its first keyframe).")
    var setupWidth: Int = 16

    @Option(help: "A run or --find-max step whose packets left more than this many milliseconds after their schedule at p99 counts as tool-bound.")
    var maxSendLateness: Double = 5

    @Flag(help: .hidden)
    var worker = false

    func run() async throws {
        do {
            try await execute()
        } catch let failure as ToolFailure {
            FileHandle.standardError.write(Data("pkrelay-traffic: \(failure.message)\n".utf8))
            throw ExitCode(failure.status.rawValue)
        }
    }

    private func loadScenario() throws -> ScenarioSpec {
        let executableDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let directories = [ScenarioLoader.defaultDirectory, executableDirectory.appendingPathComponent("../../../Config/scenarios").standardized.path]
        var spec: ScenarioSpec
        do {
            spec = try ScenarioLoader.resolve(scenario, directories: directories)
        } catch {
            throw ToolFailure(.setupFailed, error.message)
        }
        if let rooms { spec.rooms = rooms }
        if let audience { spec.audiencePerRoom = audience }
        if let subscribers { spec.subscribers = subscribers }
        if let pkMode {
            guard let mode = PKMode(rawValue: pkMode) else { throw ValidationError("--pk-mode must be link or forward") }
            spec.pkMode = mode
        }
        if let resolution {
            let parts = resolution.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 16 }) else { throw ValidationError("--resolution must look like 960x540") }
            spec.video.width = parts[0]
            spec.video.height = parts[1]
        }
        if let fps { spec.video.fps = max(1, fps) }
        if let kbps { spec.video.kbps = max(8, kbps) }
        return spec
    }

    private func execute() async throws {
        guard let seconds = DurationText.seconds(duration) else { throw ValidationError("--duration must be a positive duration such as 30s") }
        var spec = try loadScenario()
        let tokens = TokenFactory(key: try key.signingKey())
        guard udpOffload == "auto" || udpOffload == "off" else { throw ValidationError("--udp-offload must be auto or off, got '\(udpOffload)'") }
        guard (1...1000).contains(setupWidth) else { throw ValidationError("--setup-width must be 1-1000, got \(setupWidth)") }
        guard transport == "srtp" || transport == "webrtc" else { throw ValidationError("--transport must be srtp or webrtc, got '\(transport)'") }
        if spec.kind == .pkCluster, relays.count < 2 { throw ValidationError("pk-cluster needs two or more nodes: give --relay once per node") }
        if audienceOnEdges, spec.kind != .pkCluster, spec.kind != .fanout {
            throw ValidationError("--audience-on-edges is for the pk-cluster and fanout scenarios only")
        }
        if audienceOnEdges, relays.count < 2 { throw ValidationError("--audience-on-edges needs two or more nodes: give --relay once per node") }
        if spec.kind != .pkCluster, !audienceOnEdges, relays.count > 1 {
            throw ValidationError("several --relay URLs are for the pk-cluster scenario (or fanout with --audience-on-edges) only")
        }
        if !admin.isEmpty, admin.count != relays.count { throw ValidationError("give --admin once per --relay, in the same order (\(relays.count))") }
        if let threads, threads < 1 || threads > 256 { throw ValidationError("--threads must be between 1 and 256") }
        guard workers >= 1, workers <= 64 else { throw ValidationError("--workers must be between 1 and 64") }
        let chosenPart: ScenarioPart
        if let part {
            guard let parsed = ScenarioPart(part) else { throw ValidationError("--part must be K/N with 0 <= K < N, e.g. 0/2; got '\(part)'") }
            guard workers == 1 else { throw ValidationError("--part and --workers do not go together: --workers gives each worker its part") }
            chosenPart = parsed
        } else {
            chosenPart = .whole
        }
        guard maxSendLateness >= 0, maxSendLateness.isFinite else { throw ValidationError("--max-send-lateness must be a number of milliseconds, 0 or more") }
        if let relayMetrics, URL(string: relayMetrics)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--relay-metrics must be an http URL such as http://127.0.0.1:7711/metrics")
        }

        var capacity: CapacityResult?
        let final: (spec: ScenarioSpec, report: TrafficReport)
        if findMax {
            var search = CapacitySearch(start: spec.load, step: step ?? spec.findMaxStep, limit: limit ?? spec.findMaxLimit)
            var lastPassing: (ScenarioSpec, TrafficReport)?
            var lastMeasured: (ScenarioSpec, TrafficReport)?
            while let load = search.nextLoad {
                spec.load = load
                do {
                    let report = try await measure(spec, seconds: seconds, tokens: tokens, part: chosenPart)
                    search.record(
                        streams: report.streams, packetsPerSecond: report.packetsPerSecondIn, lossPercent: report.lossPercent, p99Ms: report.latencyMs.p99,
                        toolBound: report.toolBoundReasons, relayBound: report.relay?.relayBound,
                        relayShare: report.relay.map { max($0.coreShare, $0.busiestMediaThreadShare) },
                        toolShare: report.generators.map(\.busiestThreadShare).max())
                    lastMeasured = (spec, report)
                    if search.steps.last?.passed == true { lastPassing = (spec, report) }
                } catch let failure as ToolFailure where failure.status == .setupFailed {
                    search.record(streams: 0, packetsPerSecond: 0, lossPercent: 0, p99Ms: 0, setupFailed: failure.message)
                }
                if !quiet, let step = search.steps.last {
                    let relaySide = step.relayBound.map { $0 ? ", relay saturated" : ", relay not saturated" } ?? ""
                    print(
                        "find-max: load \(step.load) "
                            + "\(step.passed ? "passed" : step.toolBound ? "TOOL-BOUND: \(step.reason ?? "")" : "failed: \(step.reason ?? "")")\(relaySide)"
                    )
                }
            }
            capacity = search.result
            guard let chosen = lastPassing ?? lastMeasured else { throw ToolFailure(.setupFailed, "no load of the capacity search could be set up") }
            final = chosen
        } else {
            final = (spec, try await measure(spec, seconds: seconds, tokens: tokens, part: chosenPart))
        }
        var result = final.report
        result.capacity = capacity
        var thresholds = ThresholdResult.evaluate(lossPercent: result.lossPercent, p99Ms: result.latencyMs.p99, maxLossPercent: maxLoss, maxP99Ms: maxP99)
        if let capacity, capacity.lastPassing == nil { thresholds.violations.append("no load passed the capacity search") }
        result.thresholds = thresholds
        if !worker { print(result.text) }
        if let report {
            do {
                try result.jsonData().write(to: URL(fileURLWithPath: report))
            } catch {
                throw ToolFailure(.setupFailed, "cannot write \(report): \(error.localizedDescription)")
            }
        }
        if capacity?.endedBy == .tool {
            throw ToolFailure(.toolBound, "the traffic tool ran out before the relay did: " + (capacity?.steps.last?.reason ?? ""))
        }
        if !thresholds.passed { throw ToolFailure(.thresholdExceeded, thresholds.violations.joined(separator: "; ")) }
    }

    /// Measures one load: in this process, or with `--workers` in worker processes whose reports are merged.
    private func measure(_ spec: ScenarioSpec, seconds: Double, tokens: TokenFactory, part: ScenarioPart) async throws -> TrafficReport {
        guard workers > 1 else { return try await measureHere(spec, seconds: seconds, tokens: tokens, part: part) }
        if !quiet { print("pkrelay-traffic: \(spec.name) \(Self.sizesText(spec)) in \(workers) worker processes for \(duration)") }
        let reports = try await WorkerPool(count: workers).run { part, reportPath in workerArguments(spec, part: part, report: reportPath) }
        do {
            return try TrafficReport.merged(reports, rule: ToolBoundRule(maxLatenessP99Ms: maxSendLateness))
        } catch let error as ReportMergeError {
            throw ToolFailure(.setupFailed, "the workers' reports cannot be merged: \(error.message)")
        }
    }

    /// One worker's command line: this run's options with the scenario's current sizes, its part,
    /// and its own report file.
    private func workerArguments(_ spec: ScenarioSpec, part: ScenarioPart, report: String) -> [String] {
        var arguments = ["run", "--worker", "--part", part.description, "--report", report, "--scenario", scenario, "--duration", duration]
        for url in relays { arguments += ["--relay", url] }
        for url in admin { arguments += ["--admin", url] }
        if let config = key.config { arguments += ["--config", config] }
        if let keyId = key.keyId, let keySecret = key.keySecret { arguments += ["--key-id", keyId, "--key-secret", keySecret] }
        arguments += ["--relay-version", relayVersion, "--local-ip", localIP, "--udp-offload", udpOffload]
        arguments += ["--rooms", "\(spec.rooms)", "--audience", "\(spec.audiencePerRoom)", "--subscribers", "\(spec.subscribers)"]
        arguments += [
            "--pk-mode", spec.pkMode.rawValue, "--resolution", "\(spec.video.width)x\(spec.video.height)", "--fps", "\(spec.video.fps)", "--kbps",
            "\(spec.video.kbps)",
        ]
        if let threads { arguments += ["--threads", "\(threads)"] }
        if let relayMetrics { arguments += ["--relay-metrics", relayMetrics] }
        arguments += ["--max-send-lateness", "\(maxSendLateness)"]
        if transportCC { arguments.append("--transport-cc") }
        if pacePublishers { arguments.append("--pace-publishers") }
        if audienceOnEdges { arguments.append("--audience-on-edges") }
        arguments += ["--transport", transport, "--setup-width", "\(setupWidth)"]
        if quiet { arguments.append("--quiet") }
        return arguments
    }

    static func sizesText(_ spec: ScenarioSpec) -> String {
        spec.sizes.keys.sorted().map { "\($0)=\(spec.sizes[$0]!)" }.joined(separator: " ")
    }

    /// Measures one load in this process.
    private func measureHere(_ spec: ScenarioSpec, seconds: Double, tokens: TokenFactory, part: ScenarioPart) async throws -> TrafficReport {
        let runner = try ScenarioRunner(
            urls: relays, spec: spec, tokens: tokens, localHost: localIP, live: !quiet, segmented: udpOffload == "auto",
            threads: threads ?? Int(pkr_available_cpus()), part: part, rule: ToolBoundRule(maxLatenessP99Ms: maxSendLateness),
            transportWide: transportCC, pacePublishers: pacePublishers, webRTCAudience: transport == "webrtc", setupWidth: setupWidth,
            audienceOnEdges: audienceOnEdges)
        do {
            try await runner.probe()
        } catch {
            _ = runner.stopEngines()
            throw error
        }
        if !quiet {
            let share = part.count > 1 ? " (part \(part))" : ""
            print(
                "pkrelay-traffic: \(spec.name) \(Self.sizesText(spec))\(share) against \(relays.joined(separator: " ")) for \(duration), "
                    + "\(runner.engines.count) media thread(s)"
            )
        }
        let admins = admin
        let windows = NodeWindows()
        let metricsURL = relayMetrics
        let relayWindow = RelayWindow()
        var outcome = try await runner.run(seconds: seconds) { started in
            for (position, url) in admins.enumerated() {
                let counters = await RelayMetricsReader.packetCounters(adminURL: url)
                windows.record(position, started: started, counters: counters)
            }
            if let metricsURL { relayWindow.record(started: started, sample: await RelayMetricsReader.sample(metricsURL: metricsURL)) }
        }
        windows.shares = runner.nodeShares()
        outcome = outcome.withErrors(runner.recorder)
        if let metricsURL {
            guard let (start, end) = relayWindow.samples else {
                throw ToolFailure(.relayUnreachable, "cannot read the relay's CPU and packet counters at \(metricsURL)")
            }
            outcome.relay = RelayLoad(metricsURL: metricsURL, start: start, end: end, seconds: outcome.measuredSeconds)
        }
        var report = makeReport(
            spec, outcome: outcome, recorder: runner.recorder,
            nodes: spec.kind == .pkCluster ? windows.loads(admins: admins, seconds: outcome.measuredSeconds) : nil)
        if part.count > 1 { report.part = part.description }
        return report
    }

    /// The report of one measured run.
    private func makeReport(_ spec: ScenarioSpec, outcome: RunOutcome, recorder: ControlRecorder, nodes: [NodeLoad]?) -> TrafficReport {
        let snapshot = outcome.snapshot
        let setup: SetupTimes? =
            switch spec.kind {
            case .pkShowroom: SetupTimes(via: spec.pkMode.rawValue, latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
            case .pkCluster: SetupTimes(via: "\(spec.pkMode.rawValue) across nodes", latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
            case .churn: SetupTimes(via: "forward+link", latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
            case .fanout: SetupTimes(via: "a viewer's arrival", latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
            }
        let latency = snapshot.latency.summary
        var report = TrafficReport(
            toolVersion: TrafficCommand.version, scenario: spec.name, kind: spec.kind.rawValue, sizes: spec.sizes, video: spec.video,
            relayURL: relays.joined(separator: " "), relayVersion: relayVersion, startedAt: outcome.startedAt, durationSeconds: outcome.measuredSeconds,
            clients: outcome.clients, streams: snapshot.streams, packets: snapshot.totals, latencyMs: latency, setupToFirstKeyframeMs: setup,
            controlLatencyMs: outcome.controlLatency, errors: outcome.errors,
            thresholds: ThresholdResult(maxLossPercent: maxLoss, maxP99Ms: maxP99, violations: []), nodes: nodes)
        report.latencyFromScheduleMs = snapshot.latencyFromSchedule.summary
        report.generators = [outcome.generator]
        report.toolBound = outcome.generator.toolBound
        report.toolBoundReasons = outcome.generator.reasons
        report.relay = outcome.relay
        report.histograms = ReportHistograms(
            latency: snapshot.latency.data, latencyFromSchedule: snapshot.latencyFromSchedule.data, sendLateness: snapshot.lateness.data,
            setupToFirstKeyframe: snapshot.setup.data, control: recorder.latencyHistograms)
        return report
    }
}
