import Foundation
import Hummingbird
import Logging
import NIOCore
import PKRelayClient
import ServiceLifecycle

/// A real webhook endpoint on 127.0.0.1 (a Hummingbird app on a free port). Every attempt is
/// recorded; `respond` decides each answer (status, after an optional delay), so a test can make
/// the endpoint fail, stall and recover.
final class WebhookReceiver: Sendable {
    /// One POST as received.
    struct Hook: Sendable {
        var headers: [String: String]
        var body: [UInt8]
        var answered: Int
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
        var type: String { json["type"] as? String ?? "" }
        var id: String { json["id"] as? String ?? "" }
        var roomId: String { json["roomId"] as? String ?? "" }
        var sequence: Int { json["sequence"] as? Int ?? -1 }
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
        var attempt: Int { Int(headers["x-pkrelay-attempt"] ?? "") ?? 0 }
    }

    let port: Int
    let log: HookLog
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, log: HookLog, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.log = log
        self.group = group
        self.task = task
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Starts the receiver; `respond` gets the number of attempts received before this one and
    /// returns the status to answer with (it may sleep to play a slow endpoint).
    static func start(respond: @escaping @Sendable (Int) async -> Int = { _ in 200 }) async throws -> WebhookReceiver {
        let log = HookLog()
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let index = await log.nextIndex()
            let status = await respond(index)
            await log.append(Hook(headers: headers, body: Array(buffer.readableBytesView), answered: status))
            return Response(status: .init(code: status))
        }
        let (ports, portReported) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "webhook.receiver")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "receiver"),
            onServerRunning: { channel in portReported.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let task = Task { try await group.run() }
        let port = try await withTimeout(.seconds(10), "the webhook receiver to listen") {
            for await port in ports { return port }
            return 0
        }
        return WebhookReceiver(port: port, log: log, group: group, task: task)
    }

    /// Stops the receiver (bounded).
    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        _ = try? await withTimeout(.seconds(10), "the webhook receiver to stop") { try? await task.value }
    }

    /// Waits until the hooks answered 2xx satisfy `condition`; returns all hooks received.
    @discardableResult
    func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: @escaping @Sendable ([Hook]) -> Bool) async throws -> [Hook] {
        let log = self.log
        return try await withTimeout(timeout, what) { await log.waitUntil(condition) }
    }

    /// Hooks answered 2xx, in arrival order.
    static func delivered(_ hooks: [Hook]) -> [Hook] { hooks.filter { (200..<300).contains($0.answered) } }
}
