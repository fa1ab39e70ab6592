import Foundation
import PKRelayClient

/// A child process (ffmpeg) with its stderr captured to a file and every wait bounded.
final class ExternalProcess {
    let process = Process()
    let stderrURL: URL

    init(executable: String, arguments: [String], stderrURL: URL) throws {
        self.stderrURL = stderrURL
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Waits for the process to exit; kills it and throws ``TimeoutError`` at the deadline.
    func waitForExit(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TimeoutError(duration: timeout, what: "\(process.executableURL?.lastPathComponent ?? "process") to exit; stderr: \(stderrTail)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// Asks the process to finish (SIGINT lets ffmpeg write its trailer) and waits, then kills.
    func interruptAndWait(timeout: Duration = .seconds(5)) async {
        guard process.isRunning else { return }
        process.interrupt()
        if (try? await waitForExit(timeout: timeout)) == nil, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// The last lines the process wrote to stderr.
    var stderrTail: String {
        let text = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(8).joined(separator: "\n")
    }
}
