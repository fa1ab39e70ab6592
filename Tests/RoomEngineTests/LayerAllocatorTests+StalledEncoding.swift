import Protocol
import RoomEngine
import Testing

/// An encoding its publisher stopped sending: its viewers move to the best encoding that flows,
/// and back as soon as it flows again, without the hold a bandwidth recovery waits.
extension LayerAllocatorTests {
    static func stallRound(
        _ allocator: inout LayerAllocator, _ candidates: [VideoAllocationCandidate], budget: Int?, stalled: Set<UInt32>, flowing: Set<UInt32>,
        atMs nowMs: Int64, option: SubscribeFallbackOption = .videoStreamLow
    ) -> [String: (VideoBandwidthLimit, FallbackOrRecoverReason)] {
        let decisions = allocator.allocate(
            candidates: candidates, budgets: budget.map { [7: $0] } ?? [:], rates: rates, stalled: stalled, flowing: flowing, option: { _ in option },
            priority: { _ in .low }, nowMs: nowMs)
        return Dictionary(uniqueKeysWithValues: decisions.map { ($0.ref.publisherUserId, ($0.limit, $0.reason)) })
    }

    @Test func aViewerOfAStoppedTopEncodingMovesToTheFlowingSmallOneAndBackWhenItFlowsAgain() {
        var allocator = LayerAllocator()
        let onBig = [Self.candidate("a", base: 10)]
        // Both flow: nothing changes.
        #expect(Self.stallRound(&allocator, onBig, budget: nil, stalled: [], flowing: [10, 11], atMs: 0).isEmpty)
        // The big encoding stopped while the small one flows: the viewer moves to small, for the publisher.
        let moved = Self.stallRound(&allocator, onBig, budget: nil, stalled: [10], flowing: [11], atMs: 1000)
        #expect(moved["a"]?.0 == .small && moved["a"]?.1 == .publisherChange)
        // Big is still wanted: its publisher must not take the stop for nobody watching.
        #expect(allocator.wantedStoppedSources == [10])
        let onSmall = [Self.candidate("a", base: 10, limit: .small)]
        #expect(Self.stallRound(&allocator, onSmall, budget: nil, stalled: [10], flowing: [11], atMs: 2000).isEmpty)
        // Big flows again: back at once, with no hold, for the publisher.
        let back = Self.stallRound(&allocator, onSmall, budget: nil, stalled: [], flowing: [10, 11], atMs: 2500)
        #expect(back["a"]?.0 == VideoBandwidthLimit.none && back["a"]?.1 == .publisherChange)
        #expect(allocator.wantedStoppedSources.isEmpty)
    }

    @Test func aStopWithNothingElseFlowingOrUnderTheDisabledOptionMovesNoOne() {
        var allocator = LayerAllocator()
        let onBig = [Self.candidate("a", base: 10)]
        // Every encoding silent (a still screen, a publisher gone quiet): nothing better to show.
        #expect(Self.stallRound(&allocator, onBig, budget: nil, stalled: [10, 11], flowing: [], atMs: 0).isEmpty)
        // No small encoding at all.
        #expect(Self.stallRound(&allocator, [Self.candidate("a", base: 10, small: false)], budget: nil, stalled: [10], flowing: [], atMs: 1000).isEmpty)
        // The subscriber turned fallback off: its layer stays what it asked for.
        #expect(Self.stallRound(&allocator, onBig, budget: nil, stalled: [10], flowing: [11], atMs: 2000, option: .disabled).isEmpty)
    }

    @Test func aBandwidthFallbackDuringAStopIsKeptWhenTheEncodingFlowsAgain() {
        var allocator = LayerAllocator()
        _ = Self.stallRound(&allocator, [Self.candidate("a", base: 10)], budget: 5_000_000, stalled: [10], flowing: [11], atMs: 0)
        let onSmall = [Self.candidate("a", base: 10, limit: .small)]
        // The link shrinks below the big layer while big is stopped: the viewer stays on small,
        // now for bandwidth, and big flowing again does not bring it back.
        #expect(Self.stallRound(&allocator, onSmall, budget: 600_000, stalled: [10], flowing: [11], atMs: 1000).isEmpty)
        #expect(Self.stallRound(&allocator, onSmall, budget: 600_000, stalled: [], flowing: [10, 11], atMs: 2000).isEmpty)
        // A bandwidth recovery waits its hold from that fallback, then needs headroom, as always.
        #expect(Self.stallRound(&allocator, onSmall, budget: 5_000_000, stalled: [], flowing: [10, 11], atMs: 4_999).isEmpty)
        let up = Self.stallRound(&allocator, onSmall, budget: 5_000_000, stalled: [], flowing: [10, 11], atMs: 5_000)
        #expect(up["a"]?.0 == VideoBandwidthLimit.none && up["a"]?.1 == .subscribeRecoverByBandwidth)
    }

    @Test func threeLayersFallToTheMediumOneWhileItFlows() {
        let rates: [UInt32: Int] = [Self.audio: 40_000, 30: 1_200_000, 31: 150_000, 32: 500_000]
        let candidate = VideoAllocationCandidate(
            ref: SubscriptionRef(roomId: "r1", subscriberId: "viewer", publisherUserId: "a", streamIndex: .main), session: 1, transportId: 7,
            audioSourceId: Self.audio, requested: .big, bigSourceId: 30, smallSourceId: 31, mediumSourceId: 32, limit: .none)
        var allocator = LayerAllocator()
        let toMedium = allocator.allocate(
            candidates: [candidate], budgets: [:], rates: rates, stalled: [30], flowing: [31, 32], option: { _ in .videoStreamLow },
            priority: { _ in .low }, nowMs: 0)
        #expect(toMedium.map(\.limit) == [.medium] && toMedium.map(\.reason) == [.publisherChange])
    }
}
