import Protocol
import RoomEngine
import Testing

/// The layer allocator on a scripted clock: what falls back when a transport's budget shrinks,
/// in which order, what recovers and when, and what each fallback option allows.
@Suite struct LayerAllocatorTests {
    static let audio: UInt32 = 1
    static let rates: [UInt32: Int] = [audio: 40_000, 10: 1_300_000, 11: 200_000, 20: 1_300_000, 21: 200_000]

    /// A subscription on transport 7 to publisher `publisher`, whose big and small sources are
    /// `base` and `base + 1`.
    static func candidate(
        _ publisher: String, base: UInt32, limit: VideoBandwidthLimit = .none, requested: VideoStreamType = .big, small: Bool = true, transport: Int = 7,
        session: SessionID = 1
    ) -> VideoAllocationCandidate {
        VideoAllocationCandidate(
            ref: SubscriptionRef(roomId: "r1", subscriberId: "viewer", publisherUserId: publisher, streamIndex: .main), session: session,
            transportId: transport, audioSourceId: audio, requested: requested, bigSourceId: base, smallSourceId: small ? base + 1 : nil, limit: limit)
    }

    static func run(
        _ allocator: inout LayerAllocator, _ candidates: [VideoAllocationCandidate], budget: Int?, atMs nowMs: Int64,
        option: SubscribeFallbackOption = .videoStreamLow, high: String? = nil
    ) -> [String: (VideoBandwidthLimit, FallbackOrRecoverReason)] {
        let decisions = allocator.allocate(
            candidates: candidates, budgets: budget.map { [7: $0] } ?? [:], rates: rates, option: { _ in option },
            priority: { $0.ref.publisherUserId == high ? .high : .low }, nowMs: nowMs)
        return Dictionary(uniqueKeysWithValues: decisions.map { ($0.ref.publisherUserId, ($0.limit, $0.reason)) })
    }

    @Test func aBudgetBelowTheBigLayerFallsBackToSmallAndOnlyThenToAudioOnly() {
        var allocator = LayerAllocator()
        // Enough for the big layer and audio: nothing changes.
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10)], budget: 1_500_000, atMs: 0).isEmpty)
        // 600 kbit/s: the small layer.
        let down = Self.run(&allocator, [Self.candidate("a", base: 10)], budget: 600_000, atMs: 1000)
        #expect(down["a"]?.0 == .small && down["a"]?.1 == .subscribeFallbackByBandwidth)
        // Below the small layer: small stays small unless the option allows audio only.
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10, limit: .small)], budget: 150_000, atMs: 2000).isEmpty)
        let paused = Self.run(&allocator, [Self.candidate("a", base: 10, limit: .small)], budget: 150_000, atMs: 3000, option: .audioOnly)
        #expect(paused["a"]?.0 == .paused)
    }

    @Test func recoveryWaitsAfterAFallbackAndNeedsHeadroomAndGoesOneStepAtATime() {
        var allocator = LayerAllocator()
        _ = Self.run(&allocator, [Self.candidate("a", base: 10, limit: .small)], budget: 100_000, atMs: 0, option: .audioOnly)
        let paused = [Self.candidate("a", base: 10, limit: .paused)]
        // Within 4 s of the fallback nothing steps up, even with room to spare.
        #expect(Self.run(&allocator, paused, budget: 5_000_000, atMs: 3_999, option: .audioOnly).isEmpty)
        // Then one step per round: paused to small, then small to big.
        let first = Self.run(&allocator, paused, budget: 5_000_000, atMs: 4_000, option: .audioOnly)
        #expect(first["a"]?.0 == .small && first["a"]?.1 == .subscribeRecoverByBandwidth)
        // Big plus audio is 1.34 Mbit/s: 1.5 Mbit/s is not 20 % above it, 1.7 Mbit/s is.
        let small = [Self.candidate("a", base: 10, limit: .small)]
        #expect(Self.run(&allocator, small, budget: 1_500_000, atMs: 5_000, option: .audioOnly).isEmpty)
        #expect(Self.run(&allocator, small, budget: 1_700_000, atMs: 6_000, option: .audioOnly)["a"]?.0 == VideoBandwidthLimit.none)
    }

    @Test func aPublisherWithThreeLayersFallsBackOneLayerAtATimeAsTheBudgetShrinks() {
        let rates: [UInt32: Int] = [Self.audio: 40_000, 30: 1_200_000, 31: 150_000, 32: 500_000]
        func run(_ allocator: inout LayerAllocator, limit: VideoBandwidthLimit, budget: Int, atMs: Int64) -> VideoLimitDecision? {
            let candidate = VideoAllocationCandidate(
                ref: SubscriptionRef(roomId: "r1", subscriberId: "viewer", publisherUserId: "a", streamIndex: .main), session: 1, transportId: 7,
                audioSourceId: Self.audio, requested: .big, bigSourceId: 30, smallSourceId: 31, mediumSourceId: 32, limit: limit)
            return allocator.allocate(
                candidates: [candidate], budgets: [7: budget], rates: rates, option: { _ in .videoStreamLow }, priority: { _ in .low }, nowMs: atMs
            ).first
        }
        var allocator = LayerAllocator()
        // 900 kbit/s carries the medium layer and audio, not the big one.
        #expect(run(&allocator, limit: .none, budget: 900_000, atMs: 0)?.limit == .medium)
        // 400 kbit/s: down to small.
        #expect(run(&allocator, limit: .medium, budget: 400_000, atMs: 1000)?.limit == .small)
        // Recovery climbs one layer per round: small to medium, then medium to big.
        #expect(run(&allocator, limit: .small, budget: 3_000_000, atMs: 6000)?.limit == .medium)
        #expect(run(&allocator, limit: .medium, budget: 3_000_000, atMs: 7000)?.limit == VideoBandwidthLimit.none)
    }

    @Test func aRecoveryThatFailsDoublesTheNextHold() {
        var allocator = LayerAllocator()
        let big = [Self.candidate("a", base: 10)]
        let small = [Self.candidate("a", base: 10, limit: .small)]
        #expect(Self.run(&allocator, big, budget: 500_000, atMs: 0)["a"]?.0 == .small)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 4_000)["a"]?.0 == VideoBandwidthLimit.none)
        // Down again 2 s after stepping up: the next step up waits 8 s, not 4.
        #expect(Self.run(&allocator, big, budget: 500_000, atMs: 6_000)["a"]?.0 == .small)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 13_999).isEmpty)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 14_000)["a"]?.0 == VideoBandwidthLimit.none)
        // A second step down in the same episode does not double it again.
        let paused = [Self.candidate("a", base: 10, limit: .small)]
        #expect(Self.run(&allocator, big, budget: 500_000, atMs: 15_000)["a"]?.0 == .small)
        #expect(Self.run(&allocator, paused, budget: 50_000, atMs: 16_000, option: .audioOnly)["a"]?.0 == .paused)
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10, limit: .paused)], budget: 3_000_000, atMs: 31_999, option: .audioOnly).isEmpty)
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10, limit: .paused)], budget: 3_000_000, atMs: 32_000, option: .audioOnly)["a"] != nil)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 33_000)["a"]?.0 == VideoBandwidthLimit.none)
        // A fallback long after the last recovery holds 4 s again.
        #expect(Self.run(&allocator, big, budget: 500_000, atMs: 45_000)["a"]?.0 == .small)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 49_000)["a"]?.0 == VideoBandwidthLimit.none)
    }

    @Test func aRoundForOneTransportLeavesWhatTheOthersHoldAlone() {
        var allocator = LayerAllocator()
        let onSeven = [Self.candidate("a", base: 10)]
        #expect(Self.run(&allocator, onSeven, budget: 500_000, atMs: 0)["a"]?.0 == .small)
        // Transport 8's estimate drops between reports: its round alone, where a whole round
        // without transport 7's subscriptions would have forgotten 7's hold.
        let onEight = [Self.candidate("b", base: 20, transport: 8, session: 2)]
        let eight = allocator.allocate(
            transport: 8, candidates: onEight + onSeven, budget: 500_000, rates: Self.rates, option: { _ in .videoStreamLow }, priority: { _ in .low },
            nowMs: 1_000)
        #expect(eight.map(\.ref.publisherUserId) == ["b"] && eight.first?.limit == .small, "only transport 8's subscriptions move")
        // Transport 7 still waits out its 4 s after the move down.
        let small = [Self.candidate("a", base: 10, limit: .small)]
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 3_999).isEmpty)
        #expect(Self.run(&allocator, small, budget: 3_000_000, atMs: 4_000)["a"]?.0 == VideoBandwidthLimit.none)
    }

    @Test func theHigherPriorityKeepsItsLayerAndTheOtherGivesWay() {
        var allocator = LayerAllocator()
        let both = [Self.candidate("own-anchor", base: 10), Self.candidate("partner", base: 20)]
        // Room for one big and one small layer (and audio): the high-priority publisher keeps big.
        let budget = 40_000 + 1_300_000 + 200_000 + 50_000
        let partnerFirst = Self.run(&allocator, both, budget: budget, atMs: 0, high: "partner")
        #expect(partnerFirst["own-anchor"]?.0 == .small && partnerFirst["partner"] == nil)
        var other = LayerAllocator()
        let anchorFirst = Self.run(&other, both, budget: budget, atMs: 0, high: "own-anchor")
        #expect(anchorFirst["partner"]?.0 == .small && anchorFirst["own-anchor"] == nil)
    }

    @Test func audioIsTakenFromTheBudgetFirst() {
        var allocator = LayerAllocator()
        // 1.32 Mbit/s carries the big layer (1.3) but not with the audio (0.04) as well.
        let down = Self.run(&allocator, [Self.candidate("a", base: 10)], budget: 1_320_000, atMs: 0)
        #expect(down["a"]?.0 == .small)
    }

    @Test func disabledNeverLimitsAndLiftsALimitAtTheSubscribersRequest() {
        var allocator = LayerAllocator()
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10)], budget: 100_000, atMs: 0, option: .disabled).isEmpty)
        let lifted = Self.run(&allocator, [Self.candidate("a", base: 10, limit: .paused)], budget: 100_000, atMs: 1000, option: .disabled)
        #expect(lifted["a"]?.0 == VideoBandwidthLimit.none && lifted["a"]?.1 == .subscriberRequest)
    }

    @Test func aTransportWithoutABudgetRecoversAtOnceAndAPublisherWithoutSmallIsNotLimited() {
        var allocator = LayerAllocator()
        let up = Self.run(&allocator, [Self.candidate("a", base: 10, limit: .small)], budget: nil, atMs: 0)
        #expect(up["a"]?.0 == VideoBandwidthLimit.none && up["a"]?.1 == .subscribeRecoverByBandwidth)
        // No small layer and no audio-only option: nothing to fall back to.
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10, small: false)], budget: 300_000, atMs: 1000).isEmpty)
        // A subscriber that asked for small is never raised to big.
        #expect(Self.run(&allocator, [Self.candidate("a", base: 10, requested: .small)], budget: 9_000_000, atMs: 2000).isEmpty)
    }

    @Test func transportsAreAllocatedApart() {
        var allocator = LayerAllocator()
        let decisions = allocator.allocate(
            candidates: [Self.candidate("a", base: 10, transport: 7), Self.candidate("b", base: 20, transport: 8, session: 2)],
            budgets: [7: 500_000, 8: 3_000_000], rates: Self.rates, option: { _ in .videoStreamLow }, priority: { _ in .low }, nowMs: 0)
        #expect(decisions.map(\.ref.publisherUserId) == ["a"])
        #expect(decisions.first?.budgetBps == 500_000)
    }
}
