import Synchronization

/// Collects the ports the two listeners report once bound, and wakes whoever waits for both.
final class PortWaiter: Sendable {
    private struct State {
        var control: Int?
        var admin: Int?
        var waiter: CheckedContinuation<BoundPorts, Never>?
    }

    private let state = Mutex(State())

    func reportControl(_ port: Int) { update { $0.control = port } }
    func reportAdmin(_ port: Int) { update { $0.admin = port } }

    private func update(_ change: (inout State) -> Void) {
        let ready: (CheckedContinuation<BoundPorts, Never>, BoundPorts)? = state.withLock { state in
            change(&state)
            guard let control = state.control, let admin = state.admin, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, BoundPorts(control: control, admin: admin))
        }
        if let (waiter, ports) = ready { waiter.resume(returning: ports) }
    }

    func wait() async -> BoundPorts {
        await withCheckedContinuation { continuation in
            let ready: BoundPorts? = state.withLock { state in
                if let control = state.control, let admin = state.admin { return BoundPorts(control: control, admin: admin) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
