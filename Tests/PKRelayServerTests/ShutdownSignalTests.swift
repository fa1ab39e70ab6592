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
                      let port = URLComponents(string: url)?.port else { continue }
                return port
            }
            return nil
        }
    }

    struct RelayExited: Error { var status: Int32 }

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
        let config = directory.appendingPathComponent("pkrelay.yaml")
        try """
        control: {port: 0}
        admin: {port: 0}
        media: {portRangeStart: \(range.lowerBound), portRangeEnd: \(range.upperBound), webrtcPort: 0}
        logging: {format: json}
        shutdown: {graceSeconds: 3}
        webhooks: {secret: "\(WebhookDeliveryTests.secret)", initialBackoffMs: 20, maxBackoffMs: 100}
        """.write(to: config, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--config", config.path]
        // The endpoint comes from the environment, as a deployment would set it.
        process.environment = ProcessInfo.processInfo.environment.merging(["PKRELAY_WEBHOOKS_URLS": "[\(receiver.url)]"]) { $1 }
        let stderr = Pipe()
        let watcher = LogWatcher()
        stderr.fileHandleForReading.readabilityHandler = { handle in watcher.feed(handle.availableData) }
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            stderr.fileHandleForReading.readabilityHandler = nil
        }

        let controlPort: Int
        do {
            controlPort = try await withTimeout(.seconds(15), "pkrelay to listen") {
                while true {
                    if let port = watcher.port("control channel listening"), watcher.port("admin listening") != nil { return port }
                    guard process.isRunning else { throw RelayExited(status: process.terminationStatus) }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        } catch {
            Issue.record("pkrelay did not start: \(error); its log:\n\(watcher.all.joined(separator: "\n"))")
            return
        }
        let url = "ws://127.0.0.1:\(controlPort)/rtc"
        let alice = try await ControlClient.connect(to: url, timeout: .seconds(10))
        let bob = try await ControlClient.connect(to: url, timeout: .seconds(10))
        let _: JoinRoomResult = try await alice.request("joinRoom", JoinRoomParams(token: TestRelay.token(room: "sd-a", user: "alice"), roomId: "sd-a", userId: "alice"))
        let _: JoinRoomResult = try await bob.request("joinRoom", JoinRoomParams(token: TestRelay.token(room: "sd-b", user: "bob"), roomId: "sd-b", userId: "bob"))
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
        let hooks = try await receiver.waitUntil("the shutdown webhooks") { hooks in
            let types = WebhookReceiver.delivered(hooks).map(\.type)
            return types.filter { $0 == "room.ended" }.count >= 2 && types.filter { $0 == "user.left" }.count >= 2
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
}
