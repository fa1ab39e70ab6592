import ArgumentParser
import Foundation
import PKRelayClient
import Protocol
import TrafficCore

/// `pkrelay-traffic idle`: opens many control sessions that then do nothing, so that what an
/// idle session costs the relay can be measured (`make idle-sessions`). Prints one line starting
/// with `ready` once every session is open, holds them, then closes them.
struct IdleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle", abstract: "Open many idle control sessions (joined as audience, or only connected) and hold them.")

    @Option(help: "Sessions to open.")
    var sessions = 10_000

    @Option(help: "Rooms the sessions join (spread evenly), as invisible audience members.")
    var rooms = 100

    @Flag(help: "Only connect: join no room.")
    var connectOnly = false

    @Option(help: "How long to hold the sessions once all are open, e.g. 60s.")
    var hold = "60s"

    @Option(help: "Sessions being opened at the same time.")
    var width = 64

    @Option(help: "The relay's control URL.")
    var relay: String = "ws://127.0.0.1:7700/rtc"

    @OptionGroup var key: KeyOptions

    func run() async throws {
        do {
            try await execute()
        } catch let failure as ToolFailure {
            FileHandle.standardError.write(Data("pkrelay-traffic: \(failure.message)\n".utf8))
            throw ExitCode(failure.status.rawValue)
        }
    }

    /// Writes a line at once: the script waiting for `ready` reads it from a file, where print
    /// would sit in a buffer.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func execute() async throws {
        guard sessions > 0, rooms > 0, width > 0 else { throw ValidationError("--sessions, --rooms and --width must be positive") }
        guard let seconds = DurationText.seconds(hold) else { throw ValidationError("--hold must be a positive duration such as 60s") }
        let tokens = TokenFactory(key: try key.signingKey())
        let recorder = ControlRecorder()
        do {
            let probe = try await ControlClient.connect(to: relay, timeout: .seconds(5))
            await probe.close()
        } catch {
            throw ToolFailure(.relayUnreachable, "cannot reach the relay at \(relay): \(error)")
        }
        let url = relay
        let rooms = rooms
        let join = !connectOnly
        let started = ContinuousClock.now
        let open = try await Self.forEach(sessions, width: width) { index -> SimClient? in
            let user = "idle-\(index)"
            guard let client = try? await SimClient.connect(url: url, userId: user, recorder: recorder) else { return nil }
            guard join else { return client }
            let roomId = "idle-\(index % rooms)"
            do {
                let _: JoinRoomResult = try await client.request(
                    .joinRoom,
                    JoinRoomParams(
                        token: tokens.token(room: roomId, user: user), roomId: roomId, userId: user, role: .audience, visible: false))
                return client
            } catch {
                await client.close()
                return nil
            }
        }
        let elapsed = ContinuousClock.now - started
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let failed = sessions - open.count
        let errors = recorder.errors.keys.sorted().map { "\($0)=\(recorder.errors[$0]!)" }.joined(separator: " ")
        Self.say(
            "ready: \(open.count) sessions open\(join ? ", joined to \(rooms) rooms" : ", joined to no room") in "
                + "\(String(format: "%.1f", elapsedSeconds)) s; holding for \(hold)"
                + (failed > 0 ? "; \(failed) failed (\(errors))" : ""))
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        _ = try await Self.forEach(open.count, width: width) { index -> SimClient? in
            await open[index].close()
            return nil
        }
        Self.say("closed \(open.count) sessions")
        if failed > 0 { throw ToolFailure(.setupFailed, "\(failed) of \(sessions) sessions could not be opened (\(errors))") }
    }

    /// Runs `work` for each index with at most `width` at a time; returns the non-nil results.
    static func forEach(_ count: Int, width: Int, _ work: @escaping @Sendable (Int) async throws -> SimClient?) async throws -> [SimClient] {
        var results: [SimClient] = []
        results.reserveCapacity(count)
        try await withThrowingTaskGroup(of: SimClient?.self) { group in
            var next = 0
            while next < min(width, count) {
                let index = next
                group.addTask { try await work(index) }
                next += 1
            }
            while let result = try await group.next() {
                if let result { results.append(result) }
                if next < count {
                    let index = next
                    group.addTask { try await work(index) }
                    next += 1
                }
            }
        }
        return results
    }
}
