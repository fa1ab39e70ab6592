import Logging
import ServiceLifecycle

/// Runs webhook delivery. On graceful shutdown (after the relay has drained, so the shutdown's
/// own events are queued) it keeps delivering for up to `graceSeconds`, then gives up the rest.
struct WebhookService: Service {
    let hub: WebhookHub
    let logger: Logger
    let graceSeconds: Int

    func run() async throws {
        let hub = self.hub
        let delivery = Task { await hub.run() }
        try? await gracefulShutdown()
        await hub.flush(timeout: .seconds(graceSeconds))
        let left = hub.stats.queued
        if left > 0 { logger.warning("webhook events left undelivered at shutdown", metadata: ["events": "\(left)"]) }
        hub.stop()
        await delivery.value
    }
}
