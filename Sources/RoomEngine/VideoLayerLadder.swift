import Protocol

/// The limits one subscription may be given, cheapest first, and what each costs the transport.
struct VideoLayerLadder: Sendable {
    /// From the most limited to `.none` (what the subscriber asked for).
    var limits: [VideoBandwidthLimit]
    /// Bit/s each limit delivers.
    var costs: [Int]

    var top: Int { limits.count - 1 }

    init(candidate: VideoAllocationCandidate, option: SubscribeFallbackOption, rates: [UInt32: Int]) {
        let small = candidate.smallSourceId.map { max(rates[$0] ?? 0, LayerAllocator.smallLayerFloorBps) }
        let medium = candidate.mediumSourceId.map { max(rates[$0] ?? 0, LayerAllocator.mediumLayerFloorBps) }
        let big = max(rates[candidate.bigSourceId] ?? 0, LayerAllocator.bigLayerFloorBps)
        let asked: Int =
            switch candidate.requested {
            case .small: small ?? big
            case .medium: medium ?? big
            case .big: big
            }
        limits = []
        costs = []
        if option == .audioOnly {
            limits.append(.paused)
            costs.append(0)
        }
        if option != .disabled, candidate.requested != .small, let small {
            limits.append(.small)
            costs.append(small)
        }
        if option != .disabled, candidate.requested == .big, let medium {
            limits.append(.medium)
            costs.append(medium)
        }
        limits.append(.none)
        costs.append(asked)
    }

    /// Where a subscription limited to `limit` stands: the cheapest rung that delivers no less.
    /// A limit the ladder lacks (no small encoding, or the option changed) reads as the rung above it.
    func index(of limit: VideoBandwidthLimit) -> Int {
        limits.firstIndex { $0 <= limit } ?? top
    }
}
