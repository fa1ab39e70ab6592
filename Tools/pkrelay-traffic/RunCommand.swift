import ArgumentParser
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

    @Option(help: "The UDP offloads for the simulated clients' sockets: auto (GSO for what they send, GRO for what they receive, where the kernel has them) or off (one datagram per message).")
    var udpOffload = "auto"

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
        let live = !quiet
        guard udpOffload == "auto" || udpOffload == "off" else { throw ValidationError("--udp-offload must be auto or off, got '\(udpOffload)'") }
        let segmented = udpOffload == "auto"
        if spec.kind == .pkCluster, relays.count < 2 { throw ValidationError("pk-cluster needs two or more nodes: give --relay once per node") }
        if spec.kind != .pkCluster, relays.count > 1 { throw ValidationError("several --relay URLs are for the pk-cluster scenario only") }
        if !admin.isEmpty, admin.count != relays.count { throw ValidationError("give --admin once per --relay, in the same order (\(relays.count))") }
        let admins = admin
        let windows = NodeWindows()

        func once(_ spec: ScenarioSpec) async throws -> RunOutcome {
            let runner = try ScenarioRunner(urls: relays, spec: spec, tokens: tokens, localHost: localIP, live: live, segmented: segmented)
            do {
                try await runner.probe()
            } catch {
                _ = runner.engine.stop()
                throw error
            }
            if live { print("pkrelay-traffic: \(spec.name) \(spec.sizes.keys.sorted().map { "\($0)=\(spec.sizes[$0]!)" }.joined(separator: " ")) against \(relays.joined(separator: " ")) for \(duration)") }
            let outcome = try await runner.run(seconds: seconds) { started in
                for (position, url) in admins.enumerated() {
                    let counters = await RelayMetricsReader.packetCounters(adminURL: url)
                    windows.record(position, started: started, counters: counters)
                }
            }
            windows.shares = runner.nodeShares()
            return outcome.withErrors(runner.recorder)
        }

        var capacity: CapacityResult?
        var final: (spec: ScenarioSpec, outcome: RunOutcome)?
        if findMax {
            var search = CapacitySearch(start: spec.load, step: step ?? spec.findMaxStep, limit: limit ?? spec.findMaxLimit)
            var lastPassing: (ScenarioSpec, RunOutcome)?
            var lastMeasured: (ScenarioSpec, RunOutcome)?
            while let load = search.nextLoad {
                spec.load = load
                do {
                    let outcome = try await once(spec)
                    let summary = outcome.snapshot.latency.summary
                    search.record(streams: outcome.snapshot.streams, packetsPerSecond: Double(outcome.snapshot.totals.received) / max(outcome.measuredSeconds, 0.001),
                                  lossPercent: outcome.snapshot.totals.lossPercent, p99Ms: summary.p99)
                    lastMeasured = (spec, outcome)
                    if search.steps.last?.passed == true { lastPassing = (spec, outcome) }
                } catch let failure as ToolFailure where failure.status == .setupFailed {
                    search.record(streams: 0, packetsPerSecond: 0, lossPercent: 0, p99Ms: 0, setupFailed: failure.message)
                }
                if live, let step = search.steps.last {
                    print("find-max: load \(step.load) \(step.passed ? "passed" : "failed: \(step.reason ?? "")")")
                }
            }
            capacity = search.result
            guard let chosen = lastPassing ?? lastMeasured else { throw ToolFailure(.setupFailed, "no load of the capacity search could be set up") }
            final = chosen
        } else {
            final = (spec, try await once(spec))
        }
        guard let (usedSpec, outcome) = final else { return }
        let snapshot = outcome.snapshot
        let latency = snapshot.latency.summary
        var thresholds = ThresholdResult.evaluate(lossPercent: snapshot.totals.lossPercent, p99Ms: latency.p99, maxLossPercent: maxLoss, maxP99Ms: maxP99)
        if let capacity, capacity.lastPassing == nil { thresholds.violations.append("no load passed the capacity search") }
        let setup: SetupTimes? = switch usedSpec.kind {
        case .pkShowroom: SetupTimes(via: usedSpec.pkMode.rawValue, latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
        case .pkCluster: SetupTimes(via: "\(usedSpec.pkMode.rawValue) across nodes", latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
        case .churn: SetupTimes(via: "forward+link", latency: snapshot.setup.summary, timedOut: snapshot.setupTimedOut)
        case .fanout: nil
        }
        let result = TrafficReport(
            toolVersion: TrafficCommand.version, scenario: usedSpec.name, kind: usedSpec.kind.rawValue, sizes: usedSpec.sizes, video: usedSpec.video,
            relayURL: relays.joined(separator: " "), relayVersion: relayVersion, startedAt: outcome.startedAt, durationSeconds: outcome.measuredSeconds,
            clients: outcome.clients, streams: snapshot.streams, packets: snapshot.totals, latencyMs: latency, setupToFirstKeyframeMs: setup,
            controlLatencyMs: outcome.controlLatency, errors: outcome.errors, thresholds: thresholds, capacity: capacity,
            nodes: usedSpec.kind == .pkCluster ? windows.loads(admins: admins, seconds: outcome.measuredSeconds) : nil)
        print(result.text)
        if let report {
            do {
                try result.jsonData().write(to: URL(fileURLWithPath: report))
            } catch {
                throw ToolFailure(.setupFailed, "cannot write \(report): \(error.localizedDescription)")
            }
        }
        if !thresholds.passed { throw ToolFailure(.thresholdExceeded, thresholds.violations.joined(separator: "; ")) }
    }
}
