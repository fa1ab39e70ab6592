import Foundation

/// Debian's coturn (`turnserver`) as a child process on 127.0.0.1, with shared-secret
/// credentials (`use-auth-secret`) as operators run it, and loopback peers allowed so that it
/// may relay to a relay on the same host.
final class TURNServerProcess {
    static let executable = ["/usr/bin/turnserver", "/usr/sbin/turnserver"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { executable != nil }

    let port: Int
    let secret: String
    let logURL: URL
    let process = Process()

    init(directory: URL, secret: String = "coturn-test-secret-0123456789") throws {
        port = Int.random(in: 20000...29000)
        self.secret = secret
        logURL = directory.appendingPathComponent("turnserver.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let relayPorts = Int.random(in: 30000...38000)
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/turnserver")
        process.arguments = [
            "-n", "--listening-ip=127.0.0.1", "--listening-port=\(port)", "--relay-ip=127.0.0.1",
            "--min-port=\(relayPorts)", "--max-port=\(relayPorts + 200)",
            "--use-auth-secret", "--static-auth-secret=\(secret)", "--realm=pkrelay.test", "--fingerprint",
            "--allow-loopback-peers", "--no-cli", "--no-tls", "--no-dtls", "--log-file=stdout", "--simple-log", "--verbose",
            "--pidfile=\(directory.appendingPathComponent("turnserver.pid").path)",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: logURL)
        process.standardError = process.standardOutput
        try process.run()
    }

    /// Waits until coturn listens on its TCP port (it opens UDP and TCP together).
    func waitUntilListening(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if Self.canConnect(port: port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "coturn did not listen on \(port): \(log.suffix(2000))"])
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Ends coturn. It ignores SIGTERM while relaying (it waits for its sessions), so it gets
    /// SIGKILL; nothing of it needs to outlive the test.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } } == 0
    }
}
