import Foundation
import PostgresTestSupport

/// Runs `python3` for the checks that use Python's real validators and parsers (installed by
/// `Tools/scripts/install-deps.sh test`).
enum PythonProcess {
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    /// `python3 ARGUMENTS` with `input` on its standard input, from the temporary directory,
    /// waited for on a thread of its own (see `BlockingWork`).
    static func run(_ arguments: [String], input: Data) async throws -> Outcome {
        try await BlockingWork.run { try runBlocking(arguments, input: input) }
    }

    /// Standard error goes to a file, so that neither stream can fill up and stall the child.
    private static func runBlocking(_ arguments: [String], input: Data) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let errorsURL = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-python-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsURL) }
        let stdin = Pipe()
        let stdout = Pipe()
        let errors = try FileHandle(forWritingTo: errorsURL)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = errors
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try errors.close()
        let errorText = (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, output: output, errors: errorText)
    }
}
