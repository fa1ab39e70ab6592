import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Delivers events to one URL. Events of one room go one at a time, in order; different rooms
/// go in parallel (up to `concurrency`). Each event is retried with doubling backoff until it is
/// delivered or `retryForSeconds` have passed. Enqueueing never waits: a full queue drops the
/// event and counts it.
final class WebhookEndpoint: Sendable {
    let url: String
    let configuration: WebhookConfiguration
    let logger: Logger
    let nowMs: @Sendable () -> Int64
    let sleep: @Sendable (Duration) async throws -> Void
    private let state = Mutex(WebhookEndpointState())
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(
        url: String, configuration: WebhookConfiguration, logger: Logger, nowMs: @escaping @Sendable () -> Int64,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
        self.nowMs = nowMs
        self.sleep = sleep
        (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var stats: WebhookStats { state.withLock { $0.stats } }

    /// Queues an event; false if the queue was full (the event is counted as dropped).
    @discardableResult
    func enqueue(_ event: WebhookEvent) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped, state.stats.queued < configuration.queueSize else {
                state.stats.dropped += 1
                return false
            }
            state.stats.enqueued += 1
            state.stats.queued += 1
            state.pending[event.roomId, default: []].append(event)
            if !state.active.contains(event.roomId) && state.pending[event.roomId]!.count == 1 {
                state.ready.append(event.roomId)
            }
            return true
        }
        if accepted {
            wake.yield()
        } else {
            logger.warning("webhook queue full; event dropped", metadata: ["url": "\(url)", "room": "\(event.roomId)", "type": "\(event.type)"])
        }
        return accepted
    }

    /// Delivers until ``stop()``; then gives up what is left.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await _ in wakeups {
                while let room = takeReadyRoom() {
                    group.addTask { await self.deliverAll(room: room) }
                }
            }
            group.cancelAll()
        }
    }

    /// Stops taking events and ends ``run()``; events still queued are given up.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.finish()
    }

    /// Waits until every queued event is delivered or given up, or `timeout` passes.
    func flush(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while stats.queued > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func takeReadyRoom() -> String? {
        state.withLock { state in
            guard state.active.count < configuration.concurrency, !state.ready.isEmpty else { return nil }
            let room = state.ready.removeFirst()
            state.active.insert(room)
            return room
        }
    }

    /// Delivers a room's events in order until its queue is empty.
    private func deliverAll(room: String) async {
        while true {
            let next = state.withLock { state -> WebhookEvent? in
                if let head = state.pending[room]?.first { return head }
                state.pending[room] = nil
                state.active.remove(room)
                return nil
            }
            guard let event = next else { break }
            let delivered = Task.isCancelled ? false : await deliver(event)
            state.withLock { state in
                state.pending[room]?.removeFirst()
                state.stats.queued -= 1
                if delivered { state.stats.delivered += 1 } else { state.stats.givenUp += 1 }
            }
        }
        wake.yield()
    }

    /// Posts one event, retrying with backoff; true once the endpoint answered 2xx.
    private func deliver(_ event: WebhookEvent) async -> Bool {
        let started = ContinuousClock.now
        let retryFor = Duration.seconds(configuration.retryForSeconds)
        var delay = Duration.milliseconds(configuration.initialBackoffMs)
        var attempt = 1
        while true {
            let outcome = await post(event, attempt: attempt)
            if outcome == nil { return true }
            state.withLock { $0.stats.failedAttempts += 1 }
            if Task.isCancelled || ContinuousClock.now - started + delay > retryFor {
                logger.warning(
                    "webhook given up",
                    metadata: [
                        "url": "\(url)", "room": "\(event.roomId)", "type": "\(event.type)", "event": "\(event.id)",
                        "attempts": "\(attempt)", "error": "\(outcome!)",
                    ])
                return false
            }
            logger.debug(
                "webhook attempt failed; retrying",
                metadata: [
                    "url": "\(url)", "room": "\(event.roomId)", "type": "\(event.type)", "attempt": "\(attempt)", "error": "\(outcome!)",
                ])
            do { try await self.sleep(delay) } catch { return false }
            delay = min(delay * 2, .milliseconds(configuration.maxBackoffMs))
            attempt += 1
        }
    }

    /// One attempt: nil on success, else why it failed.
    private func post(_ event: WebhookEvent, attempt: Int) async -> String? {
        let timestamp = String(nowMs())
        let body = [UInt8](event.body)
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "PKRelay")
        request.headers.add(name: "X-PKRelay-Event", value: event.type)
        request.headers.add(name: "X-PKRelay-Delivery", value: event.id)
        request.headers.add(name: "X-PKRelay-Attempt", value: String(attempt))
        request.headers.add(name: "X-PKRelay-Timestamp", value: timestamp)
        request.headers.add(name: "X-PKRelay-Signature", value: WebhookSignature.header(secret: configuration.secret, timestamp: timestamp, body: body))
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(configuration.requestTimeoutMs)))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return (200..<300).contains(Int(response.status.code)) ? nil : "status \(response.status.code)"
        } catch {
            return "\(error)"
        }
    }
}
