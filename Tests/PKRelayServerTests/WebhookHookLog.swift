/// The attempts a webhook receiver has seen, with waiters for conditions over them. A waiter
/// whose task is cancelled (a timeout) is released with what has arrived so far.
actor HookLog {
    typealias Condition = @Sendable ([WebhookReceiver.Hook]) -> Bool

    private(set) var hooks: [WebhookReceiver.Hook] = []
    private var started = 0
    private var nextWaiter: UInt64 = 0
    private var waiters: [UInt64: (condition: Condition, continuation: CheckedContinuation<[WebhookReceiver.Hook], Never>)] = [:]

    func nextIndex() -> Int {
        defer { started += 1 }
        return started
    }

    func append(_ hook: WebhookReceiver.Hook) {
        hooks.append(hook)
        for (id, waiter) in waiters where waiter.condition(hooks) {
            waiters[id] = nil
            waiter.continuation.resume(returning: hooks)
        }
    }

    func waitUntil(_ condition: @escaping Condition) async -> [WebhookReceiver.Hook] {
        if condition(hooks) { return hooks }
        nextWaiter += 1
        let id = nextWaiter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { continuation.resume(returning: hooks) } else { waiters[id] = (condition, continuation) }
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    private func release(_ id: UInt64) {
        waiters.removeValue(forKey: id)?.continuation.resume(returning: hooks)
    }
}
