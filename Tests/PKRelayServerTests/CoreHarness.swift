import Auth
import Foundation
import Logging
import MediaPlane
import Protocol
import SecureTransport
import Synchronization

@testable import PKRelayServer

/// A relay core on a media plane that only records (``RecordingMediaCommands``): no socket,
/// no thread, a scripted clock, and every log line kept.
final class CoreHarness: Sendable {
    final class LogLines: Sendable {
        let lines = Mutex<[(level: Logger.Level, message: String, metadata: [String: String])]>([])
        /// The metadata of every line with this message, in order.
        func metadata(of message: String) -> [[String: String]] { lines.withLock { $0.filter { $0.message == message }.map(\.metadata) } }
    }

    struct CapturingHandler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues(\.description)
            lines.lines.withLock { $0.append((event.level, event.message.description, merged)) }
        }
    }

    static let startMs: Int64 = 1_700_000_000_000
    let media = RecordingMediaCommands()
    let core: RelayCore
    let logs = LogLines()
    /// The relay's clock, in Unix milliseconds; tests move it.
    final class Clock: Sendable {
        let milliseconds = Mutex<Int64>(CoreHarness.startMs)
        var now: Int64 { milliseconds.withLock { $0 } }
    }

    let clock = Clock()
    static let dtls: DTLSContext = { try! DTLSContext(certificate: DTLSCertificate()) }()

    init(_ configure: (inout RelayConfiguration) -> Void = { _ in }) {
        var configuration = RelayConfiguration()
        configuration.allowPlainRTP = true
        configuration.webhooks.urls = ["http://127.0.0.1:9/hooks"]
        configuration.webhooks.secret = "harness"
        configure(&configuration)
        let lines = logs
        let clock = self.clock
        core = RelayCore(
            configuration: configuration, media: media, logger: Logger(label: "pkrelay.core") { _ in CapturingHandler(lines: lines) },
            nowMs: { clock.now }, dtlsContext: Self.dtls)
    }

    /// A token for `user` in `room`, valid for an hour of the harness's clock.
    static func token(room: String, user: String) -> String {
        TokenMinter(key: .development).mint(TokenClaims(sub: user, room: room, exp: startMs / 1000 + 3600, iat: startMs / 1000))
    }

    /// One request as the text a client sends.
    static func request(_ id: Int, _ method: String, _ params: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params], options: [.sortedKeys]), as: UTF8.self)
    }

    /// The next message a session was sent, as JSON.
    static func next(_ messages: inout AsyncStream<String>.Iterator) async -> [String: Any]? {
        guard let text = await messages.next() else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// The answer to request `id`, reading past events (which are returned with it).
    static func answer(_ id: Int, _ messages: inout AsyncStream<String>.Iterator) async -> (answer: [String: Any], events: [[String: Any]])? {
        var events: [[String: Any]] = []
        while let message = await next(&messages) {
            if message["id"] as? Int == id { return (message, events) }
            events.append(message)
        }
        return nil
    }
}
