public import Protocol

/// Shares each subscriber transport's bandwidth budget among the video subscriptions it
/// carries: audio first, then the highest-priority video to the best layer that fits.
///
/// A state machine on the relay's clock: each round takes the candidates, each transport's budget
/// and each source's measured rate, and returns the limits that change. Falling back happens as
/// soon as what is delivered no longer fits; recovering waits ``holdAfterFallbackMs`` after a
/// transport's last fallback, takes one layer per subscription per round, and needs
/// ``recoveryHeadroom`` of spare budget, so a link that just recovered is not filled at once and
/// a budget near a layer's rate does not flap between two layers. A fallback within
/// ``failedRecoveryMs`` of a recovery doubles the transport's hold (up to ``longestHoldMs``): an
/// estimate that overshoots (a probe through a bursty bottleneck) costs one round trip of layers,
/// then ever fewer.
public struct LayerAllocator: Sendable {
    /// Spare budget a step up needs: the new total times this must fit.
    public static let recoveryHeadroom = 1.2
    /// How long a transport holds after falling back before anything on it steps up.
    public static let holdAfterFallbackMs: Int64 = 4000
    public static let failedRecoveryMs: Int64 = 10_000
    public static let longestHoldMs: Int64 = 32_000
    /// The rate assumed of a layer measured lower (just started, or paused by its publisher).
    public static let smallLayerFloorBps = 100_000
    public static let mediumLayerFloorBps = 200_000
    public static let bigLayerFloorBps = 300_000

    /// When each transport last fell back and last recovered, and how long it holds now.
    var lastFallbackMs: [Int: Int64] = [:]
    var lastRecoveryMs: [Int: Int64] = [:]
    var holdMs: [Int: Int64] = [:]

    public init() {}

    /// One round. `budgets`: bit/s per transport, absent where nothing limits it; `rates`: bit/s
    /// per source; `option` and `priority` the subscriber's settings.
    public mutating func allocate(
        candidates: [VideoAllocationCandidate], budgets: [Int: Int], rates: [UInt32: Int], option: (SessionID) -> SubscribeFallbackOption,
        priority: (VideoAllocationCandidate) -> RemoteUserPriority, nowMs: Int64
    ) -> [VideoLimitDecision] {
        var byTransport: [Int: [VideoAllocationCandidate]] = [:]
        for candidate in candidates { byTransport[candidate.transportId, default: []].append(candidate) }
        var decisions: [VideoLimitDecision] = []
        for (transportId, group) in byTransport.sorted(by: { $0.key < $1.key }) {
            let ordered = group.sorted { lhs, rhs in
                let (left, right) = (priority(lhs), priority(rhs))
                if left != right { return left > right }
                return (lhs.ref.roomId, lhs.ref.publisherUserId, lhs.ref.streamIndex.rawValue, lhs.ref.subscriberId)
                    < (rhs.ref.roomId, rhs.ref.publisherUserId, rhs.ref.streamIndex.rawValue, rhs.ref.subscriberId)
            }
            decisions += allocate(ordered, transportId: transportId, budget: budgets[transportId], rates: rates, option: option, nowMs: nowMs)
        }
        for transportId in Set(lastFallbackMs.keys).union(lastRecoveryMs.keys) where byTransport[transportId] == nil {
            lastFallbackMs[transportId] = nil
            lastRecoveryMs[transportId] = nil
            holdMs[transportId] = nil
        }
        return decisions
    }

    /// One transport's subscriptions, highest priority first.
    mutating func allocate(
        _ ordered: [VideoAllocationCandidate], transportId: Int, budget: Int?, rates: [UInt32: Int], option: (SessionID) -> SubscribeFallbackOption,
        nowMs: Int64
    ) -> [VideoLimitDecision] {
        let ladders = ordered.map { VideoLayerLadder(candidate: $0, option: option($0.session), rates: rates) }
        let current = zip(ordered, ladders).map { $1.index(of: $0.limit) }
        var chosen = current
        var reasons = [FallbackOrRecoverReason](repeating: .subscriberRequest, count: ordered.count)
        if let budget {
            let audio = Set(ordered.compactMap(\.audioSourceId)).reduce(0) { $0 + (rates[$1] ?? 0) }
            let available = budget - audio
            var total = zip(ladders, current).reduce(0) { $0 + $1.0.costs[$1.1] }
            if total > available {
                // Everyone to the bottom of their ladder, then back up in priority order as far
                // as the budget goes, but never above what each had.
                chosen = Array(repeating: 0, count: ordered.count)
                var remaining = available - ladders.reduce(0) { $0 + $1.costs[0] }
                for index in ordered.indices {
                    while chosen[index] < current[index] {
                        let step = ladders[index].costs[chosen[index] + 1] - ladders[index].costs[chosen[index]]
                        guard step <= remaining else { break }
                        remaining -= step
                        chosen[index] += 1
                    }
                }
                if chosen != current {
                    // The first step down since a recovery judges it: soon after, it failed and
                    // the hold doubles; long after, the hold starts again. Further steps down in
                    // the same episode leave the hold as it is.
                    if let recovered = lastRecoveryMs[transportId] {
                        let hold = holdMs[transportId] ?? Self.holdAfterFallbackMs
                        holdMs[transportId] = nowMs - recovered < Self.failedRecoveryMs ? min(hold * 2, Self.longestHoldMs) : Self.holdAfterFallbackMs
                        lastRecoveryMs[transportId] = nil
                    }
                    lastFallbackMs[transportId] = nowMs
                }
                reasons = Array(repeating: .subscribeFallbackByBandwidth, count: ordered.count)
            } else if nowMs - (lastFallbackMs[transportId] ?? .min / 2) >= holdMs[transportId] ?? Self.holdAfterFallbackMs {
                for index in ordered.indices where chosen[index] < ladders[index].top {
                    let step = ladders[index].costs[chosen[index] + 1] - ladders[index].costs[chosen[index]]
                    guard Double(total + step) * Self.recoveryHeadroom <= Double(available) else { continue }
                    total += step
                    chosen[index] += 1
                    reasons[index] = .subscribeRecoverByBandwidth
                }
                if chosen != current { lastRecoveryMs[transportId] = nowMs }
            }
        } else {
            // Nothing limits this transport: every subscription to the top of its ladder.
            for index in ordered.indices where chosen[index] < ladders[index].top {
                chosen[index] = ladders[index].top
                reasons[index] = .subscribeRecoverByBandwidth
            }
        }
        var decisions: [VideoLimitDecision] = []
        for (index, candidate) in ordered.enumerated() {
            let limit = ladders[index].limits[chosen[index]]
            guard limit != candidate.limit else { continue }
            // A limit the subscriber's option no longer allows is lifted at its request.
            let reason = ladders[index].limits.contains(candidate.limit) ? reasons[index] : .subscriberRequest
            decisions.append(VideoLimitDecision(ref: candidate.ref, limit: limit, reason: reason, budgetBps: budget))
        }
        return decisions
    }
}
