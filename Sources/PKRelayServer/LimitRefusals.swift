import Synchronization

/// Lifetime counts of refusals by limit. Shared by the relay core and the admin listener, which
/// refuses outside the core; touched only when something is refused.
final class LimitRefusals: Sendable {
    private let counts = Mutex<[ResourceLimit: UInt64]>([:])

    func count(_ limit: ResourceLimit) {
        counts.withLock { $0[limit, default: 0] &+= 1 }
    }

    /// Every limit with its count, zeros included, in declaration order.
    func snapshot() -> [(ResourceLimit, UInt64)] {
        let current = counts.withLock { $0 }
        return ResourceLimit.allCases.map { ($0, current[$0] ?? 0) }
    }
}
