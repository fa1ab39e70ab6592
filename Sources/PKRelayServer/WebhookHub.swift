import Foundation
import Logging

/// The relay's webhook endpoints: builds each event's body once and queues it for every URL.
final class WebhookHub: Sendable {
    let endpoints: [WebhookEndpoint]
    let nowMs: @Sendable () -> Int64

    init(configuration: WebhookConfiguration, logger: Logger, nowMs: @escaping @Sendable () -> Int64) {
        self.nowMs = nowMs
        self.endpoints = configuration.urls.map { WebhookEndpoint(url: $0, configuration: configuration, logger: logger, nowMs: nowMs) }
    }

    var isEnabled: Bool { !endpoints.isEmpty }

    var stats: WebhookStats { endpoints.reduce(WebhookStats()) { $0 + $1.stats } }

    /// Encodes and queues one event.
    func post(type: String, roomId: String, sequence: UInt64, data: [String: WebhookValue]) {
        guard isEnabled else { return }
        let id = UUID().uuidString.lowercased()
        let body = WebhookBody.encode(id: id, type: type, timestampMs: nowMs(), sequence: sequence, roomId: roomId, data: data)
        let event = WebhookEvent(id: id, type: type, roomId: roomId, body: Data(body))
        for endpoint in endpoints { endpoint.enqueue(event) }
    }

    func run() async {
        await withDiscardingTaskGroup { group in
            for endpoint in endpoints { group.addTask { await endpoint.run() } }
        }
    }

    func flush(timeout: Duration) async {
        await withDiscardingTaskGroup { group in
            for endpoint in endpoints { group.addTask { await endpoint.flush(timeout: timeout) } }
        }
    }

    func stop() { for endpoint in endpoints { endpoint.stop() } }
}
