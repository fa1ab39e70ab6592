import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM to a real `pkrelay serve` process: clients hear the shutdown (links end, onExitRoom
/// server-shutdown), the room server hears it by webhook, and the process exits within the bound.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownSignalTests {
    /// The `pkrelay` executable built beside the test bundle.
    static var executable: URL? {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
            .flatMap { [$0, $0.deletingLastPathComponent()] }
            .map { $0.appendingPathComponent("pkrelay") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Reads the relay's JSON log lines from stderr and reports its listening ports.
    final class LogWatcher: @unchecked Sendable {
        private let lock = NSLock()
        private var buffer = ""
        private var lines: [String] = []

        func feed(_ data: Data) {
            lock.withLock {
                buffer += String(decoding: data, as: UTF8.self)
                while let newline = buffer.firstIndex(of: "\n") {
                    lines.append(String(buffer[..<newline]))
                    buffer = String(buffer[buffer.index(after: newline)...])
                }
            }
        }

        var all: [String] { lock.withLock { lines } }

        /// The port in the `url` of the log line with `message`.
        func port(_ message: String) -> Int? {
            for line in all {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                    object["message"] as? String == message, let url = object["url"] as? String,
                    let port = URLComponents(string: url)?.port
                else { continue }
                return port
            }
            return nil
        }
    }

    struct RelayExited: Error { var status: Int32 }

    /// Starts `pkrelay serve` with `config` and waits until it listens; records an issue with its
    /// log and returns nil when it exits first.
    /// `namespace`: run it inside that network namespace (`ip netns exec`, which becomes pkrelay).
    static func startRelay(
        in directory: URL, config: String, executable: URL, environment: [String: String], namespace: String? = nil
    ) async throws -> (Process, LogWatcher, Int)? {
        let file = directory.appendingPathComponent("pkrelay.yaml")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        if let namespace {
            process.executableURL = URL(fileURLWithPath: NetworkNamespace.ip)
            process.arguments = ["netns", "exec", namespace, executable.path, "serve", "--config", file.path]
        } else {
            process.executableURL = executable
            process.arguments = ["serve", "--config", file.path]
        }
        // Settings such as the webhook endpoint come from the environment, as a deployment sets them.
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stderr = Pipe()
        let watcher = LogWatcher()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // A blocking read loop on a thread of its own, until the relay's end closes: a
        // `readabilityHandler` puts a read source on the pipe into libdispatch's event loop, whose
        // teardown when a killed relay's pipe closes can race the descriptor's close and crash
        // the test process in `_dispatch_event_loop_drain` (swift-corelibs-libdispatch#949).
        let reader = stderr.fileHandleForReading
        Thread.detachNewThread {
            while case let data = reader.availableData, !data.isEmpty { watcher.feed(data) }
        }
        do {
            let port = try await withTimeout(.seconds(15), "pkrelay to listen") {
                while true {
                    if let port = watcher.port("control channel listening"), watcher.port("admin listening") != nil { return port }
                    guard process.isRunning else { throw RelayExited(status: process.terminationStatus) }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            return (process, watcher, port)
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            Issue.record("pkrelay did not start: \(error); its log:\n\(watcher.all.joined(separator: "\n"))")
            return nil
        }
    }

    /// SIGTERM with graceSeconds 0 and clients still connected, one of which never reads: every
    /// client is told (a close frame) and the relay exits at once instead of waiting on them.
    @Test func sigtermWithSilentClientsDoesNotWaitForThem() async throws {
        guard let executable = Self.executable else {
            Issue.record("pkrelay was not built beside the tests (swift build --build-tests builds it)")
            return
        }
        let range = TestRelay.nextPortRange()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = try await Self.startRelay(
            in: directory,
            config: """
                control: {port: 0}
                admin: {port: 0}
                media: {portRangeStart: \(range.lowerBound), portRangeEnd: \(range.upperBound), webrtcPort: 0}
                logging: {format: json}
                shutdown: {graceSeconds: 0}
                """, executable: executable, environment: [:])
        guard let (process, _, controlPort) = started else { return }
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let url = "ws://127.0.0.1:\(controlPort)/rtc"
        let listening = try await ControlClient.connect(to: url, timeout: .seconds(10))
        let _: JoinRoomResult = try await listening.request(
            "joinRoom", JoinRoomParams(token: TestRelay.token(room: "sd-c", user: "carol"), roomId: "sd-c", userId: "carol"))
        let silent = try await SilentWebSocket.connect(port: controlPort)
        defer { silent.close() }

        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        let exit = try await listening.nextEvent(named: "onExitRoom", timeout: .seconds(5))
        if case .exitRoom(let event)? = exit.event { #expect(event.reason == .serverShutdown) } else { Issue.record("no onExitRoom") }
        let status = try await withTimeout(.seconds(10), "pkrelay to exit") {
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
            return process.terminationStatus
        }
        #expect(status == 0)
        print("pkrelay exited \(ContinuousClock.now - signalled) after SIGTERM with graceSeconds 0 and a client that never reads")
        // The silent client was sent a close frame (opcode 8), going away (1001).
        var received = [UInt8](repeating: 0, count: 4096)
        let count = recv(silent.descriptor, &received, received.count, Int32(MSG_DONTWAIT))
        let frames = count > 0 ? Array(received[0..<count]) : []
        #expect(frames.first == 0x88, "a close frame after the upgrade: \(frames.prefix(8))")
        #expect(frames.count >= 4 && (UInt16(frames[2]) << 8 | UInt16(frames[3])) == 1001)
        await listening.close()
    }

    @Test func sigtermDrainsClientsAndWebhooks() async throws {
        guard let executable = Self.executable else {
            Issue.record("pkrelay was not built beside the tests (swift build --build-tests builds it)")
            return
        }
        let receiver = try await WebhookReceiver.start()
        let range = TestRelay.nextPortRange()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = try await Self.startRelay(
            in: directory,
            config: """
                control: {port: 0}
                admin: {port: 0}
                media: {portRangeStart: \(range.lowerBound), portRangeEnd: \(range.upperBound), webrtcPort: 0}
                logging: {format: json}
                shutdown: {graceSeconds: 3}
                webhooks: {secret: "\(WebhookDeliveryTests.secret)", initialBackoffMs: 20, maxBackoffMs: 100}
                """, executable: executable, environment: ["PKRELAY_WEBHOOKS_URLS": "[\(receiver.url)]"])
        guard let (process, watcher, controlPort) = started else { return }
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let url = "ws://127.0.0.1:\(controlPort)/rtc"
        let alice = try await ControlClient.connect(to: url, timeout: .seconds(10))
        let bob = try await ControlClient.connect(to: url, timeout: .seconds(10))
        let _: JoinRoomResult = try await alice.request(
            "joinRoom", JoinRoomParams(token: TestRelay.token(room: "sd-a", user: "alice"), roomId: "sd-a", userId: "alice"))
        let _: JoinRoomResult = try await bob.request(
            "joinRoom", JoinRoomParams(token: TestRelay.token(room: "sd-b", user: "bob"), roomId: "sd-b", userId: "bob"))
        let _: ConnectOtherRoomEvent = try await alice.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "sd-b", userId: "bob"))
        try await receiver.waitUntil("link.connected") { WebhookReceiver.delivered($0).contains { $0.type == "link.connected" } }

        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)

        for client in [alice, bob] {
            let unlinked = try await client.nextEvent(named: "onDisconnectOtherRoom", timeout: .seconds(5))
            if case .disconnectOtherRoom(let end)? = unlinked.event { #expect(end.reason == "serverShutdown") }
            let exit = try await client.nextEvent(named: "onExitRoom", timeout: .seconds(5))
            if case .exitRoom(let event)? = exit.event {
                #expect(event.reason == .serverShutdown)
                #expect(event.code == ErrorCode.shuttingDown.rawValue)
            } else {
                Issue.record("no onExitRoom")
            }
        }
        let hooks: [WebhookReceiver.Hook]
        do {
            hooks = try await receiver.waitUntil("the shutdown webhooks") { hooks in
                let types = WebhookReceiver.delivered(hooks).map(\.type)
                return types.filter { $0 == "room.ended" }.count >= 2 && types.filter { $0 == "user.left" }.count >= 2
            }
        } catch {
            // What the relay said about its webhooks is what tells a slow delivery from a lost one.
            let received = await receiver.log.waitUntil { _ in true }
            Issue.record("\(error); delivered: \(WebhookReceiver.delivered(received).map(\.type)); the relay's log:\n\(watcher.all.joined(separator: "\n"))")
            throw error
        }
        let delivered = WebhookReceiver.delivered(hooks)
        #expect(delivered.first { $0.type == "link.disconnected" }?.data["reason"] as? String == "serverShutdown")
        #expect(delivered.filter { $0.type == "user.left" }.allSatisfy { $0.data["reason"] as? String == "serverShutdown" })
        for hook in delivered { WebhookDeliveryTests.expectSigned(hook) }

        let status = try await withTimeout(.seconds(8), "pkrelay to exit") {
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
            return process.terminationStatus
        }
        #expect(status == 0)
        // A bound against hanging, not a timing claim: the relay ends by itself after graceSeconds
        // (3), and a loaded machine may add several seconds to that.
        #expect(ContinuousClock.now - signalled < .seconds(15), "exit after graceSeconds (3), not a hang")
        #expect(watcher.all.contains { $0.contains("shutting down") })
        await alice.close()
        await bob.close()
        await receiver.stop()
    }

    /// The drain tells every client onExitRoom for each of its rooms and then takes the users out
    /// one by one; a client taken out later must not hear, after its own onExitRoom, the others
    /// of that room unpublishing and leaving.
    @Test func nothingOfARoomFollowsItsShutdownExit() async throws {
        let relay = try await TestRelay.start()
        let first = try await relay.join(room: "sd-c", user: "first")
        let transport: CreateTransportResult = try await first.request("createTransport", CreateTransportParams())
        let _: PublishStreamResult = try await first.request(
            "publishStream",
            PublishStreamParams(
                roomId: "sd-c", transportId: transport.transportId,
                tracks: [
                    TrackDescription(kind: .audio, ssrc: 5, payloadType: 111, codec: "opus", clockRate: 48000)
                ]))
        let second = try await relay.join(room: "sd-c", user: "second")
        _ = try await second.nextEvent(named: "onUserPublishStream", timeout: .seconds(5))
        let before = await second.eventCount

        await relay.stop()
        try await withTimeout(.seconds(5), "the relay to close the connection") {
            while !(await second.isClosed) { try await Task.sleep(for: .milliseconds(20)) }
        }

        let names = await second.events().dropFirst(before).map(\.name).filter { $0 != "onNetworkQuality" }
        #expect(names.first == "onExitRoom", "\(names)")
        #expect(names.dropFirst().isEmpty, "events after onExitRoom: \(names)")
        await first.close()
        await second.close()
    }
}
