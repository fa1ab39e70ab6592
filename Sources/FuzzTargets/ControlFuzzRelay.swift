import Dispatch
import Logging
import MediaPlane
import PKRelayServer
import RoomEngine
import SecureTransport

/// Runs control-channel scripts against a real relay core: a fresh core with WebRTC and webhooks
/// on, three connected sessions and a scripted clock, over a fresh media plane that records the
/// commands instead of opening sockets (so transport ids start at 1 in every script, and each
/// script ends with every transport closed). Only the DTLS certificate is shared between scripts.
///
/// Webhooks point at a URL nothing listens on and are never delivered (the delivery service is
/// not started), but every event is still derived and queued, which is where bad room ids
/// once trapped.
final class ControlFuzzRelay: Sendable {
    static let shared = ControlFuzzRelay()

    /// The scripted clock's start: 2023-11-14T22:13:20Z.
    static let startMs: Int64 = 1_700_000_000_000

    let logger = Logger(label: "pkrelay.fuzz") { _ in SwiftLogNoOpLogHandler() }

    let configuration: RelayConfiguration = {
        var configuration = RelayConfiguration()
        configuration.controlPort = 0
        configuration.adminPort = 0
        configuration.allowPlainRTP = true
        configuration.media.threads = 1
        configuration.media.webRTCPort = 0
        // Above Linux's ephemeral range, away from the test suites' ranges.
        configuration.media.portRange = 61_000...61_999
        configuration.media.receiveBufferBytes = 64 << 10
        configuration.media.sendBufferBytes = 64 << 10
        // Scripts carry control frames, not media: small batches and buffers, no offloads (a GRO
        // receive batch and a full retransmission buffer per source are megabytes that the
        // sanitizer's allocator would poison and free for every input).
        configuration.media.receiveBatchSize = 4
        configuration.media.sendBatchSize = 4
        configuration.media.receiveOffload = .off
        configuration.media.segmentationOffload = .off
        configuration.media.retransmissionBufferPackets = 16
        configuration.webhooks.urls = ["http://127.0.0.1:9/pkrelay-hooks"]
        configuration.webhooks.secret = "fuzz-webhook-secret"
        return configuration
    }()

    /// One certificate and DTLS context for every script's core: making them is most of what
    /// starting a core costs, and nothing a script does changes them.
    let dtlsContext: DTLSContext = {
        do {
            return try DTLSContext(certificate: DTLSCertificate())
        } catch {
            preconditionFailure("the DTLS context cannot be made: \(error)")
        }
    }()

    /// Runs `script` from async code and returns what the relay sent each connection, in the
    /// order the connections opened (a reconnected session's new connection comes last).
    @discardableResult
    func run(_ script: ControlFuzzScript) async -> [[String]] {
        let clock = ScriptedClock(startMs: Self.startMs)
        // The control plane is what is fuzzed here: a media plane that only records keeps each
        // input free of sockets and threads.
        let media = RecordingMediaCommands(portRange: configuration.media.portRange)
        let core = RelayCore(configuration: configuration, media: media, logger: logger, nowMs: { clock.nowMs }, dtlsContext: dtlsContext)
        // Every connection's messages queue as for a client, and are read once the relay has drained.
        var connections: [(id: SessionID, stream: AsyncStream<String>)] = []
        var streams: [AsyncStream<String>] = []
        for _ in 0..<ControlFuzzScript.sessionCount {
            connections.append(await core.connect())
            streams.append(connections.last!.stream)
        }
        for step in script.steps {
            switch step {
            case .send(let session, let text):
                await core.handle(text, from: connections[session].id)
            case .sendBinary(let session):
                await core.handleBinary(from: connections[session].id)
            case .reconnect(let session):
                await core.disconnect(connections[session].id)
                connections[session] = await core.connect()
                streams.append(connections[session].stream)
            case .advance(let milliseconds):
                clock.advance(byMs: milliseconds)
                await core.tick()
            case .admin(let words):
                await Self.admin(words, on: core)
            case .drain:
                await core.drain()
            }
        }
        _ = await core.overview()
        await core.drain()
        // Every transport a client opened is closed once everyone has gone: the engine closes
        // what it was told of, after what was on it.
        if !media.openTransports.isEmpty { preconditionFailure("transports left open after draining: \(media.openTransports)") }
        // Draining finished every stream, so reading them ends.
        var transcripts: [[String]] = []
        for stream in streams {
            var messages: [String] = []
            for await message in stream { messages.append(message) }
            transcripts.append(messages)
        }
        return transcripts
    }

    /// Runs `script` and waits for it: for callers outside Swift concurrency, such as libFuzzer.
    func runBlocking(_ script: ControlFuzzScript) {
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = await run(script)
            done.signal()
        }
        done.wait()
    }

    private static func admin(_ words: [String], on core: RelayCore) async {
        let first = words.first ?? ""
        let second = words.count > 1 ? words[1] : ""
        let third = words.count > 2 ? words[2] : ""
        switch first {
        case "rooms": _ = await core.adminRooms()
        case "room": _ = await core.adminRoom(second)
        case "dismiss": _ = await core.adminDismiss(roomId: second, reason: third.isEmpty ? nil : third)
        case "kick": _ = await core.adminKick(roomId: second, userIds: [third])
        case "stop": _ = await core.adminStopForwarding(roomId: second, userId: third)
        default: _ = await core.adminStats()
        }
    }
}
