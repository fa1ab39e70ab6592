import Synchronization

/// Collects the ports the two listeners report once bound, and wakes everyone who waits for both
/// (the starter of the relay, the cluster service that registers the node's URL, the admin API).
final class PortWaiter: Sendable {
    private struct State {
        var control: Int?
        var admin: Int?
        var waiters: [CheckedContinuation<BoundPorts, Never>] = []
    }

    private let state = Mutex(State())

    func reportControl(_ port: Int) { update { $0.control = port } }
    func reportAdmin(_ port: Int) { update { $0.admin = port } }

    private func update(_ change: (inout State) -> Void) {
        let ready: ([CheckedContinuation<BoundPorts, Never>], BoundPorts)? = state.withLock { state in
            change(&state)
            guard let control = state.control, let admin = state.admin, !state.waiters.isEmpty else { return nil }
            defer { state.waiters = [] }
            return (state.waiters, BoundPorts(control: control, admin: admin))
        }
        if let (waiters, ports) = ready { for waiter in waiters { waiter.resume(returning: ports) } }
    }

    func wait() async -> BoundPorts {
        await withCheckedContinuation { continuation in
            let ready: BoundPorts? = state.withLock { state in
                if let control = state.control, let admin = state.admin { return BoundPorts(control: control, admin: admin) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
