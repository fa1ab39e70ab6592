import Foundation
import PostgresTestSupport
import Testing

/// The walkthrough of docs/CLUSTER.md ("Three nodes on one machine"), run as written: its shell
/// block is read from the document and run by bash, with two lines given for the test (its own
/// directory for `WALK`, so that runs never meet, and the tests' build for `BIN`, since SwiftPM
/// cannot be asked while it runs the tests). As root it runs in a network namespace of its own,
/// where its fixed ports are free whatever else runs on the machine.
@Suite(
    "The cluster walkthrough of docs/CLUSTER.md", .timeLimit(.minutes(3)),
    .enabled(
        if: PostgresTestServer.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
        "needs PostgreSQL's server binaries and ffmpeg"))
struct ClusterWalkthroughTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first `sh` block after the walkthrough's heading.
    static func walkthrough() throws -> String {
        let document = try String(contentsOf: root.appendingPathComponent("docs/CLUSTER.md"), encoding: .utf8)
        guard let heading = document.range(of: "## Three nodes on one machine"),
            let open = document.range(of: "```sh\n", range: heading.upperBound..<document.endIndex),
            let close = document.range(of: "\n```", range: open.upperBound..<document.endIndex)
        else { throw Failure(description: "docs/CLUSTER.md has no walkthrough block") }
        return String(document[open.upperBound..<close.lowerBound])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @Test("three relays, placements spread and agreed, a redirected publish, a watch through an edge, a forward across nodes, pk-cluster load")
    func walkthroughRunsAsWritten() async throws {
        guard let relay = ShutdownSignalTests.executable else {
            Issue.record("pkrelay was not built beside the tests (swift build --build-tests builds it)")
            return
        }
        let written = try Self.walkthrough()
        let directory = "/tmp/pk-walk-test-\(UUID().uuidString.prefix(8))"
        let given = [
            ("BIN=$(swift build --show-bin-path)", "BIN=\(relay.deletingLastPathComponent().path)"),
            ("WALK=/tmp/pk-walk", "WALK=\(directory)"),
        ]
        var script = written
        for (line, replacement) in given {
            #expect(script.contains(line + "\n"), "the walkthrough no longer says \(line)")
            script = script.replacingOccurrences(of: line + "\n", with: replacement + "\n")
        }
        // If a step fails, nothing it started is left running.
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("pk-walk-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let wrapper = """
            set -e -o pipefail
            exec 9> \(trace.path)
            BASH_XTRACEFD=9
            set -x
            cleanup() {
              status=$?
              set +e +x
              if [ $status != 0 ]; then tail -n 8 "$WALK"/relay-*.log 2>/dev/null; echo "--- the last steps:"; tail -n 12 \(trace.path); fi
              [ -n "${PIDS:-}" ] && kill -CONT $PIDS 2>/dev/null && kill -9 $PIDS 2>/dev/null
              [ -n "$(jobs -p)" ] && kill -9 $(jobs -p) 2>/dev/null
              [ -d "$WALK/db" ] && $AS_PG $PG/pg_ctl -D "$WALK/db" -m immediate -w stop > /dev/null 2>&1
              rm -rf "$WALK"
              exit $status
            }
            WALK=\(directory)
            trap cleanup EXIT
            \(script)
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pk-walk-\(UUID().uuidString).sh")
        try wrapper.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let isolated = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        let command =
            isolated
            ? ["/usr/bin/unshare", "--net", "/bin/bash", "-c", "ip link set lo up && exec /bin/bash \(file.path)"]
            : ["/bin/bash", file.path]
        let started = ContinuousClock.now
        let (status, output) = try await BlockingWork.run { try Self.run(command, in: Self.root) }
        print("cluster: the walkthrough ran in \(ContinuousClock.now - started) (\(isolated ? "own network namespace" : "host network"))")
        try #require(status == 0, "the walkthrough failed (\(status)):\n\(output.suffix(4000))")

        let lines = output.split(separator: "\n").map(String.init)
        // Step 3: three rooms on three nodes, each URL the node's own control port; relay-3 agrees.
        let placements = lines.compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{\"controlURL\"") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        try #require(placements.count >= 6, "\(lines)")
        #expect(Set(placements.prefix(3).compactMap { $0["nodeId"] as? String }) == ["relay-1", "relay-2", "relay-3"], "\(placements)")
        for placement in placements {
            guard let node = placement["nodeId"] as? String, let url = placement["controlURL"] as? String, let n = node.last else { continue }
            #expect(url == "ws://127.0.0.1:78\(n)0/rtc", "\(placement)")
        }
        #expect(placements[3]["nodeId"] as? String == placements[1]["nodeId"] as? String, "relay-3 answers pk-2 as relay-1 did")
        // Steps 4 and 5: video decoded through the redirects and across nodes.
        let frames = lines.compactMap { Int($0) }
        #expect(frames.count >= 2 && frames.prefix(2).allSatisfy { $0 > 10 }, "frames decoded: \(frames)")
        // Step 5: relay-2 took the pipe's packets, over a node-to-node connection.
        let packets = lines.filter { $0.hasPrefix("pkrelay_packets_in_total ") }.compactMap { Double($0.split(separator: " ").last ?? "") }
        #expect(packets.count == 2 && packets[1] > packets[0], "\(packets)")
        #expect(lines.contains { $0.contains("cluster peer connected") })
        // Step 6: the traffic tool reported both PK directions across the nodes.
        #expect(output.contains("node       ws://127.0.0.1:7830/rtc"), "\(output.suffix(2000))")
    }

    /// Runs `command` in `directory` to its end; its status and its output (stdout and stderr).
    static func run(_ command: [String], in directory: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = directory
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pk-walk-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
