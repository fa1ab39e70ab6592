import Auth
import Foundation
import Logging
import MediaPlane
import PKRelayClient
import PKRelayServer
import Protocol
import ServiceLifecycle
import Synchronization
import Testing

/// A relay running in-process on ephemeral control and admin ports, with a media port range of
/// its own so relays of tests running in parallel never compete for ports.
final class TestRelay: Sendable {
    let server: RelayServer
    let group: ServiceGroup
    let runTask: Task<Void, any Error>
    let ports: BoundPorts

    /// Hands out distinct 100-port media ranges from 12000 to 31999: below the kernel's ephemeral
    /// range (32768 and up), so that no client socket bound to port 0 (the traffic tool's
    /// simulated clients, the tests' own) can take a port a test relay expects to be free.
    private static let rangeCounter = Atomic<Int>(0)

    static func nextPortRange() -> ClosedRange<Int> {
        let slot = rangeCounter.add(1, ordering: .relaxed).oldValue % 200
        let first = 12000 + slot * 100
        return first...(first + 99)
    }

    private init(server: RelayServer, group: ServiceGroup, runTask: Task<Void, any Error>, ports: BoundPorts) {
        self.server = server
        self.group = group
        self.runTask = runTask
        self.ports = ports
    }

    /// Starts a relay; `configure` may adjust the configuration first. `nowMs` is the relay's
    /// clock (Unix milliseconds); tests of rate limits pass a frozen one.
    static func start(
        nowMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        _ configure: (inout RelayConfiguration) -> Void = { _ in }
    ) async throws -> TestRelay {
        var configuration = RelayConfiguration()
        configuration.controlPort = 0
        configuration.adminPort = 0
        configuration.shutdownGraceSeconds = 2
        configuration.media.portRange = nextPortRange()
        configuration.media.webRTCPort = 0
        // Two shards unless told otherwise, so that rooms spread and cross-shard paths run in
        // every end-to-end test; PKR_TEST_MEDIA_THREADS=1 runs them on one.
        configuration.media.threads = ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_THREADS"].flatMap { Int($0) } ?? 2
        // Every room's receiving transports spread (media.spreadRoomAfter 0), so that a room's
        // audience sits on both shards and every end-to-end test runs its subscribers across the
        // pipes as a popular room's do; PKR_TEST_MEDIA_SPREAD_ROOM_AFTER sets another threshold.
        configuration.media.spreadRoomAfter = ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_SPREAD_ROOM_AFTER"].flatMap { Int($0) } ?? 0
        // PKR_TEST_MEDIA_GSO=off and PKR_TEST_MEDIA_GRO=off run them without the UDP offloads
        // (auto otherwise), PKR_TEST_MEDIA_SEND_ONLY_SOCKETS=false without send-only sockets,
        // PKR_TEST_MEDIA_CONNECTED_SOCKETS=false with plain transports' sockets left unconnected.
        if let gso = ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_GSO"].flatMap(UDPOffload.init(rawValue:)) {
            configuration.media.segmentationOffload = gso
        }
        if let gro = ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_GRO"].flatMap(UDPOffload.init(rawValue:)) {
            configuration.media.receiveOffload = gro
        }
        if ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_SEND_ONLY_SOCKETS"] == "false" {
            configuration.media.sendOnlySockets = false
        }
        if ProcessInfo.processInfo.environment["PKR_TEST_MEDIA_CONNECTED_SOCKETS"] == "false" {
            configuration.media.connectedSockets = false
        }
        configure(&configuration)
        var logger = Logger(label: "pkrelay.test")
        logger.logLevel = .warning
        let server = try RelayServer(configuration: configuration, logger: logger, nowMs: nowMs)
        let group = server.makeServiceGroup(handleSignals: false)
        let runTask = Task { try await group.run() }
        let ports = try await withTimeout(.seconds(10), "the relay's listeners") { await server.boundPorts() }
        return TestRelay(server: server, group: group, runTask: runTask, ports: ports)
    }

    /// The control URL on the address the relay listens on (127.0.0.1 for every address).
    var controlURL: String {
        let host = server.configuration.controlHost
        return "ws://\(host == "0.0.0.0" || host == "localhost" ? "127.0.0.1" : host):\(ports.control)/rtc"
    }

    /// Shuts the relay down gracefully and waits (bounded) for it to stop, also when the test
    /// was cancelled (by its time limit, say): the wait runs in a task of its own, so a
    /// cancelled test still lets its relay release its ports before the next test takes them.
    func stop() async {
        let group = self.group
        let task = runTask
        let stopped = await Task {
            await group.triggerGracefulShutdown()
            return (try? await withTimeout(.seconds(15), "the relay to shut down") { try? await task.value }) != nil
        }.value
        if !stopped {
            // A relay that does not stop is a bug to see, not a test run that hangs.
            Issue.record("the relay did not shut down within 15 s")
            task.cancel()
        }
    }

    /// Runs `body` with a fresh relay and always stops it afterwards.
    static func with<T: Sendable>(
        nowMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        _ configure: (inout RelayConfiguration) -> Void = { _ in }, _ body: (TestRelay) async throws -> T
    ) async throws -> T {
        let relay = try await start(nowMs: nowMs, configure)
        do {
            let result = try await body(relay)
            await relay.stop()
            return result
        } catch {
            await relay.stop()
            throw error
        }
    }

    /// A token signed with the development key (the relay's default).
    static func token(
        room: String, user: String, expiresIn seconds: Int64 = 3600, notBefore: Int64? = nil, grants: TokenGrantSet? = nil, key: SigningKey = .development
    ) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenMinter(key: key).mint(TokenClaims(sub: user, room: room, exp: now + seconds, nbf: notBefore, iat: now, grants: grants))
    }

    /// Connects a control client.
    func connect() async throws -> ControlClient {
        try await ControlClient.connect(to: controlURL, timeout: .seconds(10))
    }

    /// Connects and joins `room` as `user`.
    func join(room: String, user: String, grants: TokenGrantSet? = nil, roomConfig: RoomConfig? = nil) async throws -> ControlClient {
        let client = try await connect()
        let _: JoinRoomResult = try await client.request(
            "joinRoom",
            JoinRoomParams(
                token: Self.token(room: room, user: user, grants: grants), roomId: room, userId: user, roomConfig: roomConfig))
        return client
    }

    /// The admin /metrics text.
    func metrics() async throws -> String {
        try await AdminHTTPClient.text(port: ports.admin, path: "/metrics")
    }

    /// One sample of /metrics, e.g. `pkrelay_dropped_packets_total{reason="unexpected_source"}`.
    func metric(_ name: String) async throws -> UInt64 {
        try await AdminHTTPClient.metric(port: ports.admin, name)
    }

    /// Several samples from one scrape of /metrics, so that they come from the same report.
    func metrics(_ names: [String]) async throws -> [String: UInt64] {
        let text = try await metrics()
        var values: [String: UInt64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            let series = String(line[..<space])
            if names.contains(series), let value = AdminHTTPClient.sampleValue(line[line.index(after: space)...]) { values[series] = value }
        }
        return values
    }

    /// Every datagram left in a message of its own, or with GSO in one with the rest of its
    /// run: never more messages than datagrams (as many without GSO), never more calls than
    /// messages.
    func expectConsistentSendingCounts(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let sending = try await metrics([
            "pkrelay_media_gso", "pkrelay_packets_out_total", "pkrelay_media_send_messages_total", "pkrelay_media_send_calls_total",
        ])
        let datagrams = sending["pkrelay_packets_out_total"] ?? 0
        let messages = sending["pkrelay_media_send_messages_total"] ?? 0
        let calls = sending["pkrelay_media_send_calls_total"] ?? 0
        #expect(datagrams > 0 && calls > 0 && calls <= messages, "\(sending)", sourceLocation: sourceLocation)
        if sending["pkrelay_media_gso"] == 1 {
            #expect(messages <= datagrams, "\(sending)", sourceLocation: sourceLocation)
        } else {
            #expect(messages == datagrams, "\(sending)", sourceLocation: sourceLocation)
        }
    }

    /// How the media left, for the record: datagrams, the kernel messages they took (fewer with
    /// GSO, when a subscriber's datagrams of one batch share a size) and the ratio.
    func sendingSummary() async throws -> String {
        let values = try await metrics(["pkrelay_packets_out_total", "pkrelay_media_send_messages_total", "pkrelay_media_gso"])
        let datagrams = values["pkrelay_packets_out_total"] ?? 0
        let messages = values["pkrelay_media_send_messages_total"] ?? 0
        let ratio = messages == 0 ? 0 : Double(datagrams) / Double(messages)
        return
            "gso \(values["pkrelay_media_gso"] == 1 ? "on" : "off"): \(datagrams) datagrams in \(messages) messages "
                + "(\((ratio * 100).rounded() / 100) per message)"
    }

    /// Polls `metric` until `condition` holds (metrics refresh about once a second).
    @discardableResult
    func waitForMetric(_ name: String, timeout: Duration = .seconds(6), until condition: (UInt64) -> Bool) async throws -> UInt64 {
        try await AdminHTTPClient.waitForMetric(port: ports.admin, name, timeout: timeout, until: condition)
    }
}
