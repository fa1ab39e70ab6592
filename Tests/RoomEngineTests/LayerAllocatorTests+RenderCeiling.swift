import Protocol
import RoomEngine
import Testing

/// The rendered size as a second ceiling: a viewer showing a publisher small gets the encoding
/// that fills it, priced as that encoding, and goes back up at once when it shows it larger.
extension LayerAllocatorTests {
    static func renderRound(
        _ allocator: inout LayerAllocator, limit: VideoBandwidthLimit, ceiling: VideoStreamType?, budget: Int?, atMs nowMs: Int64,
        option: SubscribeFallbackOption = .videoStreamLow, requested: VideoStreamType = .big
    ) -> VideoLimitDecision? {
        var candidate = Self.candidate("a", base: 10, limit: limit, requested: requested)
        candidate.renderCeiling = ceiling
        return allocator.allocate(
            candidates: [candidate], budgets: budget.map { [7: $0] } ?? [:], rates: rates, option: { _ in option }, priority: { _ in .low },
            nowMs: nowMs
        ).first
    }

    @Test func aSmallRenderedSizeCapsTheLayerAtTheAppsRequestAndALargerOneLiftsItAtOnce() {
        var allocator = LayerAllocator()
        // Shown small: the small layer, at the subscriber's request, with nothing limiting the link.
        let down = Self.renderRound(&allocator, limit: .none, ceiling: .small, budget: nil, atMs: 0)
        #expect(down?.limit == .small && down?.reason == .subscriberRequest)
        #expect(Self.renderRound(&allocator, limit: .small, ceiling: .small, budget: nil, atMs: 1000) == nil)
        // Shown large again: up at once (no bandwidth hold), at its request.
        let up = Self.renderRound(&allocator, limit: .small, ceiling: nil, budget: 5_000_000, atMs: 1500)
        #expect(up?.limit == VideoBandwidthLimit.none && up?.reason == .subscriberRequest)
    }

    @Test func theRenderCeilingHoldsUnderTheDisabledOptionAndNeverRaisesWhatWasAsked() {
        var allocator = LayerAllocator()
        let capped = Self.renderRound(&allocator, limit: .none, ceiling: .small, budget: nil, atMs: 0, option: .disabled)
        #expect(capped?.limit == .small)
        // A ceiling above the request (or equal to it) changes nothing.
        var other = LayerAllocator()
        #expect(Self.renderRound(&other, limit: .none, ceiling: .big, budget: nil, atMs: 0, requested: .small) == nil)
    }

    @Test func aCappedSubscriptionIsPricedAtItsCeilingSoItDoesNotPushOthersDown() {
        // Two publishers on one transport; one shown as a thumbnail. 1.7 Mbit/s carries big +
        // small + audio, not two bigs: the thumbnail's small is what counts, and the other keeps big.
        var thumbnail = Self.candidate("a", base: 10)
        thumbnail.renderCeiling = .small
        let main = Self.candidate("b", base: 20)
        var allocator = LayerAllocator()
        let decisions = allocator.allocate(
            candidates: [thumbnail, main], budgets: [7: 1_700_000], rates: Self.rates, option: { _ in .videoStreamLow }, priority: { _ in .low }, nowMs: 0)
        #expect(decisions.map(\.ref.publisherUserId) == ["a"] && decisions.first?.limit == .small)
    }

    @Test func aLargerRenderedSizeThatTheLinkCannotCarryStopsWhereItFits() {
        var allocator = LayerAllocator()
        _ = Self.renderRound(&allocator, limit: .none, ceiling: .small, budget: 600_000, atMs: 0)
        // Shown large on a 600 kbit/s link: big does not fit, so the viewer stays on small.
        #expect(Self.renderRound(&allocator, limit: .small, ceiling: nil, budget: 600_000, atMs: 1000) == nil)
    }
}
