import Foundation
import TrafficCore

/// `--workers N`: runs N generator processes of this same executable, each with `--part K/N`,
/// and collects their JSON reports for merging.
struct WorkerPool {
    let count: Int

    /// This executable, as the kernel knows it (independent of the working directory and PATH).
    static var executable: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }

    /// Starts every worker with the arguments `arguments(part, reportPath)` gives, waits for all
    /// of them and returns their reports in part order.
    ///
    /// - Throws: ``ToolFailure`` with the relay-unreachable or setup status when a worker ended
    ///   with it, or when a worker wrote no report.
    func run(arguments: (ScenarioPart, String) -> [String]) async throws -> [TrafficReport] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-traffic-workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The workers write to the same terminal: what this process printed comes first.
        fflush(nil)
        var processes: [(ScenarioPart, Process, URL)] = []
        for index in 0..<count {
            let part = ScenarioPart(index: index, count: count)!
            let report = directory.appendingPathComponent("part-\(index).json")
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = arguments(part, report.path)
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                for (_, started, _) in processes { started.terminate() }
                throw ToolFailure(.setupFailed, "cannot start worker \(part): \(error)")
            }
            processes.append((part, process, report))
        }
        while processes.contains(where: { $0.1.isRunning }) { try? await Task.sleep(for: .milliseconds(100)) }
        var reports: [TrafficReport] = []
        for (part, process, url) in processes {
            let status = process.terminationStatus
            if status == ExitStatus.relayUnreachable.rawValue { throw ToolFailure(.relayUnreachable, "worker \(part) could not reach the relay") }
            guard let data = try? Data(contentsOf: url) else {
                throw ToolFailure(.setupFailed, "worker \(part) wrote no report (exit status \(status))")
            }
            do {
                reports.append(try JSONDecoder().decode(TrafficReport.self, from: data))
            } catch {
                throw ToolFailure(.setupFailed, "worker \(part) wrote an unreadable report: \(error)")
            }
        }
        return reports
    }
}
