import ArgumentParser
import Foundation
import TrafficCore

/// `pkrelay-traffic merge`: combines the JSON reports of generators that ran one scenario
/// together (on several hosts with `--part`) into one report.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of generators that ran one scenario together (histograms merged, counts summed).")

    @Argument(help: "The reports to merge (written with --report).")
    var reports: [String]

    @Option(help: "Write the merged report as JSON to this file.")
    var report: String?

    func run() throws {
        do {
            guard !reports.isEmpty else { throw ValidationError("give the reports to merge") }
            var decoded: [TrafficReport] = []
            for path in reports {
                guard let data = FileManager.default.contents(atPath: path) else { throw ToolFailure(.setupFailed, "cannot read \(path)") }
                do {
                    decoded.append(try JSONDecoder().decode(TrafficReport.self, from: data))
                } catch {
                    throw ToolFailure(.setupFailed, "\(path) is not a pkrelay-traffic report: \(error)")
                }
            }
            let merged: TrafficReport
            do {
                merged = try TrafficReport.merged(decoded)
            } catch let error as ReportMergeError {
                throw ToolFailure(.setupFailed, error.message)
            }
            print(merged.text)
            if let report {
                do {
                    try merged.jsonData().write(to: URL(fileURLWithPath: report))
                } catch {
                    throw ToolFailure(.setupFailed, "cannot write \(report): \(error.localizedDescription)")
                }
            }
            if !merged.thresholds.passed { throw ToolFailure(.thresholdExceeded, merged.thresholds.violations.joined(separator: "; ")) }
        } catch let failure as ToolFailure {
            FileHandle.standardError.write(Data("pkrelay-traffic: \(failure.message)\n".utf8))
            throw ExitCode(failure.status.rawValue)
        }
    }
}
