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
///
/// An encoding its publisher stopped sending while a lower one flows (a browser drops its top
/// encoding when its own uplink estimate falls) is not delivered: its viewers move to the best
/// encoding that still flows, and back as soon as it flows again, both with reason
/// ``FallbackOrRecoverReason/publisherChange``. The bandwidth logic meanwhile goes on as if they
/// had what they would have without the stall, so the way back needs no hold.
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
    /// Subscriptions moved off an encoding that stopped, with the limit they would have otherwise
    /// and the stopped encoding that limit delivers.
    var stallLimited: [SubscriptionRef: (limit: VideoBandwidthLimit, source: UInt32)] = [:]
    /// The top of each ladder a rendered size cut short, as of the last round: a subscription at
    /// that top when the size grows goes up at once, as when the app asks for more.
    var renderTops: [SubscriptionRef: VideoBandwidthLimit] = [:]

    public init() {}

    /// Stopped encodings that subscriptions were moved off and would receive again: a publisher
    /// that stopped one because nobody received it (`onSubscribedLayersChanged`) must hear that
    /// it is wanted, or those subscriptions never get it back.
    public var wantedStoppedSources: Set<UInt32> { Set(stallLimited.values.map(\.source)) }

    /// One round. `budgets`: bit/s per transport, absent where nothing limits it; `rates`: bit/s
    /// per source; `stalled`: sources that sent before and have stopped; `flowing`: sources
    /// sending now; `option` and `priority` the subscriber's settings.
    public mutating func allocate(
        candidates: [VideoAllocationCandidate], budgets: [Int: Int], rates: [UInt32: Int], stalled: Set<UInt32> = [], flowing: Set<UInt32> = [],
        option: (SessionID) -> SubscribeFallbackOption, priority: (VideoAllocationCandidate) -> RemoteUserPriority, nowMs: Int64
    ) -> [VideoLimitDecision] {
        var byTransport: [Int: [VideoAllocationCandidate]] = [:]
        for candidate in candidates { byTransport[candidate.transportId, default: []].append(candidate) }
        var decisions: [VideoLimitDecision] = []
        for (transportId, group) in byTransport.sorted(by: { $0.key < $1.key }) {
            decisions += allocate(
                Self.ordered(group, priority: priority), transportId: transportId, budget: budgets[transportId], rates: rates, stalled: stalled,
                flowing: flowing, option: option, nowMs: nowMs)
        }
        let present = Set(candidates.map(\.ref))
        stallLimited = stallLimited.filter { present.contains($0.key) }
        renderTops = renderTops.filter { present.contains($0.key) }
        for transportId in Set(lastFallbackMs.keys).union(lastRecoveryMs.keys) where byTransport[transportId] == nil {
            lastFallbackMs[transportId] = nil
            lastRecoveryMs[transportId] = nil
            holdMs[transportId] = nil
        }
        return decisions
    }

    /// A round for one transport only, whose budget changed between reports: `candidates` are
    /// all of its video subscriptions, and what the allocator remembers of every other
    /// transport and subscription stays as it is. The cost follows the transport's
    /// subscriptions, not the node's audience.
    public mutating func allocate(
        transport transportId: Int, candidates: [VideoAllocationCandidate], budget: Int?, rates: [UInt32: Int], stalled: Set<UInt32> = [],
        flowing: Set<UInt32> = [], option: (SessionID) -> SubscribeFallbackOption, priority: (VideoAllocationCandidate) -> RemoteUserPriority,
        nowMs: Int64
    ) -> [VideoLimitDecision] {
        let group = candidates.filter { $0.transportId == transportId }
        guard !group.isEmpty else { return [] }
        return allocate(
            Self.ordered(group, priority: priority), transportId: transportId, budget: budget, rates: rates, stalled: stalled, flowing: flowing,
            option: option, nowMs: nowMs)
    }

    /// One transport's subscriptions in the order the budget serves them: highest priority
    /// first, then by room, publisher, stream and subscriber, for a stable order.
    static func ordered(_ group: [VideoAllocationCandidate], priority: (VideoAllocationCandidate) -> RemoteUserPriority) -> [VideoAllocationCandidate] {
        group.sorted { lhs, rhs in
            let (left, right) = (priority(lhs), priority(rhs))
            if left != right { return left > right }
            return (lhs.ref.roomId, lhs.ref.publisherUserId, lhs.ref.streamIndex.rawValue, lhs.ref.subscriberId)
                < (rhs.ref.roomId, rhs.ref.publisherUserId, rhs.ref.streamIndex.rawValue, rhs.ref.subscriberId)
        }
    }

    /// One transport's subscriptions, highest priority first.
    mutating func allocate(
        _ ordered: [VideoAllocationCandidate], transportId: Int, budget: Int?, rates: [UInt32: Int], stalled: Set<UInt32>, flowing: Set<UInt32>,
        option: (SessionID) -> SubscribeFallbackOption, nowMs: Int64
    ) -> [VideoLimitDecision] {
        let ladders = ordered.map { VideoLayerLadder(candidate: $0, option: option($0.session), rates: rates) }
        // Where each stands for bandwidth: what it would have without a stalled encoding, and the
        // top of its ladder when it was at the top of a ladder a rendered size has since raised.
        let raised = zip(ordered, ladders).map { candidate, ladder in
            renderTops[candidate.ref].map { $0 == candidate.limit && ladder.limits[ladder.top] < $0 } ?? false
        }
        let current = ordered.indices.map { index in
            raised[index] ? ladders[index].top : ladders[index].index(of: stallLimited[ordered[index].ref]?.limit ?? ordered[index].limit)
        }
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
            let wanted = ladders[index].limits[chosen[index]]
            let delivered = ladders[index].flowing(below: chosen[index], stalled: stalled, flowing: flowing)
            let wasStallLimited = stallLimited[candidate.ref] != nil
            stallLimited[candidate.ref] = ladders[index].sources[chosen[index]].flatMap { delivered < chosen[index] ? (wanted, $0) : nil }
            let top = ladders[index].limits[ladders[index].top]
            renderTops[candidate.ref] = top == .none ? nil : top
            let limit = ladders[index].limits[delivered]
            guard limit != candidate.limit else { continue }
            let reason: FallbackOrRecoverReason =
                if !ladders[index].limits.contains(candidate.limit) || (raised[index] && limit < candidate.limit) {
                    // A limit the subscriber's option or rendered size no longer allows, or a
                    // larger rendered size: at its request.
                    .subscriberRequest
                } else if delivered < chosen[index] || (wasStallLimited && limit < candidate.limit) {
                    .publisherChange
                } else {
                    reasons[index]
                }
            decisions.append(VideoLimitDecision(ref: candidate.ref, limit: limit, reason: reason, budgetBps: budget))
        }
        return decisions
    }
}
