import Logging
import MediaPlane
import ServiceLifecycle

/// Runs the relay's timers while it is up and, on graceful shutdown, drains: joins are refused,
/// clients are told, users leave, then the media plane stops. The drain is bounded by the
/// configured grace period.
struct RelayLifecycleService: Service {
    let core: RelayCore
    let media: MediaPlane
    let logger: Logger
    let graceSeconds: Int

    func run() async throws {
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                await core.tick()
            }
        }
        let mediaEvents = Task {
            for await event in media.events { await core.handleMediaEvent(event) }
        }
        try? await gracefulShutdown()
        mediaEvents.cancel()
        logger.notice("shutting down: draining connections", metadata: ["graceSeconds": "\(graceSeconds)"])
        ticker.cancel()
        let drain = Task { await core.drain() }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(graceSeconds))
            drain.cancel()
        }
        await drain.value
        deadline.cancel()
        // Give the WebSocket writers a moment to flush the last events before the listeners close.
        try? await Task.sleep(for: .milliseconds(200))
        media.stop()
        logger.notice("media plane stopped")
    }
}
