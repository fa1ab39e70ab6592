import Foundation
import Glibc

/// A DTLS peer from another implementation, run as a child process: a scratch directory for
/// its files, its output captured in a file, and bounded waits so a stuck peer never hangs
/// the tests.
final class DTLSPeerProcess {
    /// Why the peer could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// A scratch directory for keys, programs and output, removed on deinit.
    let directory: URL
    /// Where the running program writes its standard output and error.
    let outputPath: String
    /// The running program, if any.
    private var process: Process?
    /// The write end of the program's standard input, open until ``closeInput()``.
    private var input: Pipe?

    /// Makes the scratch directory.
    init(name: String) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outputPath = directory.appendingPathComponent("output.txt").path
    }

    deinit {
        if let process, process.isRunning {
            Self.kill(process)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A path inside the scratch directory.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Whether every program in `programs` is on the PATH.
    static func onPath(_ programs: [String]) -> Bool {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return programs.allSatisfy { program in
            directories.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
    }

    /// Starts `program` (looked up on the PATH unless it is a path) with its output going
    /// to ``outputPath``.
    func launch(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw SetupError(description: "cannot create \(outputPath)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let input = Pipe()
        let process = Self.process(program, arguments, environment: environment)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process
        self.input = input
    }

    /// Whether the program has exited.
    var hasExited: Bool {
        !(process?.isRunning ?? false)
    }

    /// What the program has printed so far.
    var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The rest of the first line of output that starts with `prefix`.
    func printedValue(after prefix: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Waits up to `limit` until `prefix` starts a line of output.
    func waitForLine(startingWith prefix: String, within limit: Duration) async -> String? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if let value = printedValue(after: prefix) {
                return value
            }
            if hasExited {
                return printedValue(after: prefix)
            }
            await Self.pause()
        }
        return nil
    }

    /// Closes the program's standard input.
    func closeInput() {
        try? input?.fileHandleForWriting.close()
        input = nil
    }

    /// Waits up to `limit` for the program to exit; kills it otherwise.
    ///
    /// - Returns: Whether it exited by itself with status 0.
    @discardableResult
    func finish(within limit: Duration) async -> Bool {
        closeInput()
        guard let process else { return true }
        let clock = ContinuousClock()
        let start = clock.now
        while process.isRunning, clock.now - start < limit {
            await Self.pause()
        }
        guard !process.isRunning else {
            Self.kill(process)
            return false
        }
        return process.terminationStatus == 0
    }

    /// Runs `program` to completion within `limit`, failing when it does not succeed.
    func run(_ program: String, _ arguments: [String], environment: [String: String] = [:], within limit: Duration) async throws {
        let process = Self.process(program, arguments, environment: environment)
        let log = path("\(program.split(separator: "/").last ?? "run").log")
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw SetupError(description: "cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let clock = ContinuousClock()
        let start = clock.now
        while process.isRunning, clock.now - start < limit {
            await Self.pause()
        }
        if process.isRunning {
            Self.kill(process)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw SetupError(description: "\(program) \(arguments.joined(separator: " ")) failed:\n\(said)")
        }
    }

    /// Waits between two looks at the child, giving the thread back meanwhile: these tests run on
    /// Swift's cooperative pool, one thread per core, and a test that blocked one of them for as
    /// long as a child takes (a Go build, a handshake) would stall every other test in the
    /// process, and the relays they run in-process, until their timers fire.
    static func pause() async {
        try? await Task.sleep(for: .milliseconds(10))
    }

    /// A process running `program` through `env`, so the PATH is searched.
    private static func process(_ program: String, _ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return process
    }

    /// Stops `process` for certain and reaps it.
    ///
    /// SIGKILL rather than `terminate()`'s SIGTERM: a child inherits the signal mask of the
    /// thread that spawned it, and test threads block SIGTERM.
    private static func kill(_ process: Process) {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The DER bytes of the first certificate in PEM text.
    static func derFromPEM(_ pem: String) -> [UInt8]? {
        let lines = pem.split(whereSeparator: \.isNewline)
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN CERTIFICATE") }),
            let end = lines[begin...].firstIndex(where: { $0.hasPrefix("-----END CERTIFICATE") })
        else {
            return nil
        }
        return Data(base64Encoded: lines[(begin + 1)..<end].joined()).map { Array($0) }
    }
}
