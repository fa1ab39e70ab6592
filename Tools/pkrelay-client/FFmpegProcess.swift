import Foundation

/// Runs ffmpeg/ffplay as a child process and stops it when asked.
final class FFmpegProcess: @unchecked Sendable {
    // Mutated only before `run()` returns and read after; Process is thread-safe for terminate/wait.
    let process = Process()

    init(executable: String, arguments: [String]) throws {
        let path = ["/usr/bin/\(executable)", "/usr/local/bin/\(executable)"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { throw ToolError("\(executable) is not installed (apt-get install ffmpeg)") }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
    }

    func start() throws { try process.run() }

    /// Asks it to stop (SIGINT, as ffmpeg expects), then insists: a player that hangs (ffplay
    /// without a display or audio device) gets SIGTERM after 2 s and SIGKILL after 4 s.
    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
            if process.isRunning { process.terminate() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 4) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Waits for the process without blocking a concurrency thread.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                continuation.resume(returning: self.process.terminationStatus)
            }
        }
    }
}
