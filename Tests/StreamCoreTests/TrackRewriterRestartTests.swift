import StreamCore
import Testing

/// A sender that restarts its numbering within one generation (same SSRC): told apart from late
/// and stray packets by time and distance, and resynchronised so the subscriber never freezes.
@Suite struct TrackRewriterRestartTests {
    static let clockRate: UInt32 = 90_000

    /// A rewriter that has forwarded source packets `start`, `start+1`, `start+2` 33 ms apart.
    static func flowing(from start: UInt16, outputFrom: UInt16 = 1000) -> TrackRewriter {
        var rewriter = TrackRewriter(outputSSRC: 7, initialSequenceNumber: outputFrom, initialTimestamp: 0, clockRate: clockRate)
        for index in 0..<3 {
            _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: start &+ UInt16(index), timestamp: UInt32(index) * 3000, nowMs: Int64(index) * 33)
        }
        return rewriter
    }

    @Test(arguments: [
        // Early in a subscription, more than half the number space ahead (judged "behind").
        (UInt16(100), UInt16(40_100)),
        // The sender restarted lower.
        (UInt16(30_000), UInt16(5)),
        // A restart whose numbers then wrap from 65535 to 0.
        (UInt16(20_000), UInt16(65_533)),
        // A jump ahead far beyond any loss a NACK could repair.
        (UInt16(100), UInt16(5_100)),
    ])
    func aRestartedSenderIsResynchronisedOnItsSecondPacket(start: UInt16, restart: UInt16) throws {
        var rewriter = Self.flowing(from: start)
        let last = rewriter.lastOutputSequenceNumber
        #expect(last == 1002)
        // The first packet alone may be a stray: dropped, nothing moves.
        let dropped1 = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: restart, timestamp: 500_000, nowMs: 100)
        #expect(dropped1 == nil)
        #expect(rewriter.lastOutputSequenceNumber == last)
        // Its successor confirms the restart: numbers run on, a keyframe is wanted.
        let resumedNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: restart &+ 1, timestamp: 503_000, nowMs: 133)
        let resumed = try #require(resumedNumbers)
        #expect(resumed.sequenceNumber == last &+ 1)
        #expect(resumed.resynchronized)
        // 67 ms after the last output packet, at least one tick on.
        #expect(resumed.timestamp == 6000 + 67 * 90)
        for step in 2..<6 {
            let nextNumbers = rewriter.rewrite(
                sourceGeneration: 1, sequenceNumber: restart &+ UInt16(step), timestamp: 503_000 + UInt32(step - 1) * 3000, nowMs: 133 + Int64(step) * 33)
            let next = try #require(nextNumbers)
            #expect(next.sequenceNumber == last &+ UInt16(step))
            #expect(!next.resynchronized)
            #expect(next.timestamp == resumed.timestamp &+ UInt32(step - 1) * 3000)
        }
        #expect(rewriter.resynchronizations == 1)
    }

    @Test func afterASilenceAPacketFromBeforeTheStartResumesAtOnce() throws {
        var rewriter = Self.flowing(from: 5000)
        // Near the old numbers (not far), but after 2 s of nothing: a restarted encoder.
        let resumedNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 4900, timestamp: 77, nowMs: 2066)
        let resumed = try #require(resumedNumbers)
        #expect(resumed.resynchronized && resumed.sequenceNumber == 1003)
        #expect(resumed.timestamp == 6000 + 2000 * 90)
    }

    @Test func lateAndStrayPacketsDoNotRestartTheStream() throws {
        var rewriter = Self.flowing(from: 20_000)
        // A reordered packet within reach maps by the offset.
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 20_005, timestamp: 15_000, nowMs: 100)
        let lateNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 20_004, timestamp: 12_000, nowMs: 101)
        let late = try #require(lateNumbers)
        #expect(late.sequenceNumber == 1004 && !late.resynchronized)
        // Before the generation's start but near, without a silence: stale.
        let dropped3 = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 19_990, timestamp: 0, nowMs: 102)
        #expect(dropped3 == nil)
        // Far strays that are not followed by their successors never restart.
        let dropped4 = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 3, timestamp: 0, nowMs: 103)
        #expect(dropped4 == nil)
        let dropped5 = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 60_000, timestamp: 0, nowMs: 104)
        #expect(dropped5 == nil)
        let nextNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 20_006, timestamp: 18_000, nowMs: 105)
        let next = try #require(nextNumbers)
        #expect(next.sequenceNumber == 1006 && !next.resynchronized)
        #expect(rewriter.resynchronizations == 0)
    }

    @Test func aBurstOfLossWithinTheRestartDistanceStillMapsByTheOffset() throws {
        var rewriter = Self.flowing(from: 65_000)
        // 800 packets lost, across the wrap.
        let afterLossNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 65_002 &+ 801, timestamp: 90_000, nowMs: 1000)
        let afterLoss = try #require(afterLossNumbers)
        #expect(afterLoss.sequenceNumber == 1002 &+ 801)
        #expect(!afterLoss.resynchronized)
        // The gap can still be repaired: a packet from inside it maps too.
        let repairedNumbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 65_002 &+ 400, timestamp: 80_000, nowMs: 1001)
        let repaired = try #require(repairedNumbers)
        #expect(repaired.sequenceNumber == 1002 &+ 400)
        #expect(rewriter.resynchronizations == 0)
    }
}
