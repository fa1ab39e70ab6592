import Protocol

/// The limits one subscription may be given, cheapest first, and what each costs the transport.
struct VideoLayerLadder: Sendable {
    /// From the most limited to `.none` (what the subscriber asked for), or to the encoding that
    /// fills its rendered size when that is smaller.
    var limits: [VideoBandwidthLimit]
    /// Bit/s each limit delivers.
    var costs: [Int]
    /// The source each limit delivers (nil for `.paused`).
    var sources: [UInt32?]

    var top: Int { limits.count - 1 }

    init(candidate: VideoAllocationCandidate, option: SubscribeFallbackOption, rates: [UInt32: Int]) {
        let small = candidate.smallSourceId.map { max(rates[$0] ?? 0, LayerAllocator.smallLayerFloorBps) }
        let medium = candidate.mediumSourceId.map { max(rates[$0] ?? 0, LayerAllocator.mediumLayerFloorBps) }
        let big = max(rates[candidate.bigSourceId] ?? 0, LayerAllocator.bigLayerFloorBps)
        let (asked, askedSource): (Int, UInt32) =
            switch candidate.requested {
            case .small: (small ?? big, candidate.smallSourceId ?? candidate.bigSourceId)
            case .medium: (medium ?? big, candidate.mediumSourceId ?? candidate.bigSourceId)
            case .big: (big, candidate.bigSourceId)
            }
        // The rendered size's ceiling, where it is below what was asked and its encoding exists.
        let ceiling: VideoBandwidthLimit? =
            switch (candidate.renderCeiling, candidate.requested) {
            case (.small, .medium), (.small, .big): candidate.smallSourceId.map { _ in .small }
            case (.medium, .big): candidate.mediumSourceId.map { _ in .medium }
            default: nil
            }
        limits = []
        costs = []
        sources = []
        if option == .audioOnly {
            limits.append(.paused)
            costs.append(0)
            sources.append(nil)
        }
        if let small, ceiling == .small || (option != .disabled && candidate.requested != .small) {
            limits.append(.small)
            costs.append(small)
            sources.append(candidate.smallSourceId)
        }
        if ceiling == .small { return }
        if let medium, ceiling == .medium || (option != .disabled && candidate.requested == .big) {
            limits.append(.medium)
            costs.append(medium)
            sources.append(candidate.mediumSourceId)
        }
        if ceiling == .medium { return }
        limits.append(.none)
        costs.append(asked)
        sources.append(askedSource)
    }

    /// The rung to deliver instead of `index` while some encodings have stopped: `index` itself
    /// unless its encoding is in `stalled`, else the best rung below it whose encoding flows
    /// (`index` again when none does: nothing better to show).
    func flowing(below index: Int, stalled: Set<UInt32>, flowing: Set<UInt32>) -> Int {
        guard let source = sources[index], stalled.contains(source) else { return index }
        return (0..<index).last { rung in sources[rung].map { flowing.contains($0) } ?? false } ?? index
    }

    /// Where a subscription limited to `limit` stands: the cheapest rung that delivers no less.
    /// A limit the ladder lacks (no small encoding, or the option changed) reads as the rung above
    /// it, or as the top rung when a rendered-size ceiling cut the ladder below it.
    func index(of limit: VideoBandwidthLimit) -> Int {
        limits.firstIndex { $0 <= limit } ?? top
    }
}
