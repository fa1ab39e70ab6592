import Foundation
import PKRelayClient
import PKRelayServer

/// The aiortc WebRTC peer (Tests/Interop/webrtc_peer.py) as a child process: a real WebRTC
/// implementation nobody on the project wrote. It prints one JSON summary line on stdout.
final class WebRTCPeerProcess {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/webrtc_peer.py")
    /// The python3 on PATH, the one `make test` installs aiortc for.
    static let env = "/usr/bin/env"

    /// Whether python3 finds aiortc (`make test` installs it). It looks the package up without
    /// importing it: the first import on a fresh machine compiles aiortc and its dependencies,
    /// seconds during which the thread asking (one of the cooperative pool's few) would stall
    /// the tests beside it.
    static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: env)
        process.arguments = ["python3", "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('aiortc') is None)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    let name: String
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    /// Starts `webrtc_peer.py --url … --room … --user … --token … <arguments>`.
    convenience init(_ name: String, relay: TestRelay, room: String, user: String, arguments: [String], directory: URL) throws {
        try self.init(
            name,
            arguments: [
                "--url", "ws://127.0.0.1:\(relay.ports.control)/rtc", "--room", room, "--user", user,
                "--token", TestRelay.token(room: room, user: user), "--verbose",
            ] + arguments, directory: directory)
    }

    /// Starts `webrtc_peer.py --url URL --token TOKEN whip <arguments>`: an aiortc publisher
    /// that speaks WHIP (RFC 9725) instead of the control channel.
    static func whip(_ name: String, url: String, token: String, arguments: [String], directory: URL) throws -> WebRTCPeerProcess {
        try WebRTCPeerProcess(name, arguments: ["--url", url, "--token", token, "--verbose", "whip"] + arguments, directory: directory)
    }

    /// Starts `webrtc_peer.py` with exactly `arguments`.
    init(_ name: String, arguments: [String], directory: URL) throws {
        self.name = name
        stdoutURL = directory.appendingPathComponent("\(name).out")
        stderrURL = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.env)
        process.arguments = ["python3", Self.script.path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Waits for the exit (killing the peer at the deadline) and returns its status and summary.
    func finish(timeout: Duration) async throws -> (status: Int32, summary: [String: Any]) {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TimeoutError(duration: timeout, what: "\(name) (aiortc) to finish; stderr: \(stderrTail)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let text = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").last.map(String.init) ?? "{}"
        let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return (process.terminationStatus, summary)
    }

    func kill() {
        if process.isRunning { process.terminate() }
    }

    var stderrTail: String {
        let text = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(12).joined(separator: "\n")
    }

    /// Decoded video (or audio) frames per publisher from a subscriber's summary.
    static func frames(_ summary: [String: Any], _ kind: String, of user: String) -> Int {
        ((summary["\(kind)Frames"] as? [String: Any])?[user] as? Int) ?? 0
    }
}
