import Testing

@testable import StreamCore

@Suite struct TrackRewriterTests {
    /// 90 kHz video clock: 90 ticks per millisecond.
    static let videoClockRate: UInt32 = 90_000

    @Test func firstPacketStartsAtInitialValues() {
        var rewriter = TrackRewriter(
            outputSSRC: 0xCAFE_BABE, initialSequenceNumber: 1000,
            initialTimestamp: 50_000, clockRate: Self.videoClockRate)
        #expect(rewriter.outputSSRC == 0xCAFE_BABE)
        #expect(rewriter.lastOutputSequenceNumber == 999)
        let first = rewriter.rewrite(sourceGeneration: 7, sequenceNumber: 31_000, timestamp: 123_456, nowMs: 10)
        #expect(first == RewrittenPacketNumbers(sequenceNumber: 1000, timestamp: 50_000))
        #expect(rewriter.lastOutputSequenceNumber == 1000)
    }

    /// Source packets of one generation, out of order and retransmitted, with the numbers the
    /// subscriber must see: a fixed offset from the first packet.
    static let reorderedPackets: [(sourceSequence: UInt16, sourceTimestamp: UInt32, output: RewrittenPacketNumbers)] = [
        (500, 9000, RewrittenPacketNumbers(sequenceNumber: 10, timestamp: 1000)),
        (502, 9000 + 3000, RewrittenPacketNumbers(sequenceNumber: 12, timestamp: 4000)),
        (501, 9000 + 1500, RewrittenPacketNumbers(sequenceNumber: 11, timestamp: 2500)),
        (504, 9000 + 6000, RewrittenPacketNumbers(sequenceNumber: 14, timestamp: 7000)),
        (501, 9000 + 1500, RewrittenPacketNumbers(sequenceNumber: 11, timestamp: 2500)),
        (503, 9000 + 4500, RewrittenPacketNumbers(sequenceNumber: 13, timestamp: 5500)),
    ]

    @Test func reorderedAndRetransmittedPacketsMapConsistently() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 10, initialTimestamp: 1000,
            clockRate: Self.videoClockRate)
        for (index, packet) in Self.reorderedPackets.enumerated() {
            let output = rewriter.rewrite(
                sourceGeneration: 1, sequenceNumber: packet.sourceSequence,
                timestamp: packet.sourceTimestamp, nowMs: Int64(index) * 5)
            #expect(output == packet.output, "packet \(index)")
        }
        #expect(rewriter.lastOutputSequenceNumber == 14)
        #expect(rewriter.lastOutputTimestamp == 7000)
    }

    @Test func republishContinuesSequenceAndTimestampAcrossWrapAround() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 65_534,
            initialTimestamp: 0xFFFF_FC00, clockRate: Self.videoClockRate)
        // Generation 1: three packets 20 ms apart, output sequence wraps past 65535.
        let firstPacket = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 100, timestamp: 0, nowMs: 1000)
        #expect(firstPacket == RewrittenPacketNumbers(sequenceNumber: 65_534, timestamp: 0xFFFF_FC00))
        let secondPacket = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 101, timestamp: 1800, nowMs: 1020)
        #expect(secondPacket == RewrittenPacketNumbers(sequenceNumber: 65_535, timestamp: 0xFFFF_FC00 &+ 1800))
        let wrappedPacket = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 102, timestamp: 3600, nowMs: 1040)
        #expect(wrappedPacket == RewrittenPacketNumbers(sequenceNumber: 0, timestamp: 0xFFFF_FC00 &+ 3600))

        // The publisher republishes 460 ms later with unrelated numbers: the subscriber sees the
        // next sequence number and a timestamp advanced by the elapsed 460 ms (41 400 ticks).
        let lastTimestamp = 0xFFFF_FC00 &+ UInt32(3600)
        let republishedPacket = rewriter.rewrite(sourceGeneration: 2, sequenceNumber: 40_000, timestamp: 0x8000_0000, nowMs: 1500)
        #expect(republishedPacket == RewrittenPacketNumbers(sequenceNumber: 1, timestamp: lastTimestamp &+ 41_400))
        let nextRepublishedPacket = rewriter.rewrite(sourceGeneration: 2, sequenceNumber: 40_001, timestamp: 0x8000_0000 + 1800, nowMs: 1520)
        #expect(nextRepublishedPacket == RewrittenPacketNumbers(sequenceNumber: 2, timestamp: lastTimestamp &+ 41_400 &+ 1800))
    }

    @Test func sourceSequenceWrapAroundWithinGenerationIsContinuous() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 300, initialTimestamp: 0,
            clockRate: Self.videoClockRate)
        let sourceSequences: [UInt16] = [65_534, 65_535, 0, 1]
        let outputs = sourceSequences.map {
            rewriter.rewrite(sourceGeneration: 0, sequenceNumber: $0, timestamp: 0, nowMs: 0)?.sequenceNumber
        }
        #expect(outputs == [300, 301, 302, 303])
    }

    /// Time between the last packet of one generation and the first of the next, with the
    /// timestamp advance the subscriber must see at 90 kHz.
    static let generationGaps: [(elapsedMs: Int64, expectedAdvance: UInt32)] = [
        (0, 1),
        (-50, 1),
        (1, 90),
        (33, 2970),
        (86_400_000, UInt32(truncatingIfNeeded: UInt64(86_400_000) * 90)),
    ]

    @Test(arguments: generationGaps)
    func newGenerationAdvancesTimestampByElapsedTimeAtLeastOneTick(elapsedMs: Int64, expectedAdvance: UInt32) {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 5000,
            clockRate: Self.videoClockRate)
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 10, timestamp: 10, nowMs: 1_000)
        let switched = rewriter.rewrite(
            sourceGeneration: 2, sequenceNumber: 999, timestamp: 77,
            nowMs: 1_000 + elapsedMs)
        #expect(switched == RewrittenPacketNumbers(sequenceNumber: 1, timestamp: 5000 &+ expectedAdvance))
    }

    @Test func elapsedTimeCountsFromTheHighestPacketNotFromALateOne() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 0,
            clockRate: 48_000)
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 1, timestamp: 0, nowMs: 0)
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 3, timestamp: 1920, nowMs: 40)
        // A reordered packet arriving later must not move the reference point.
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 2, timestamp: 960, nowMs: 90)
        let switched = rewriter.rewrite(sourceGeneration: 2, sequenceNumber: 50, timestamp: 0, nowMs: 100)
        #expect(switched == RewrittenPacketNumbers(sequenceNumber: 3, timestamp: 1920 + 60 * 48))
    }

    @Test func latePacketsFromOlderGenerationAreDropped() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 0,
            clockRate: Self.videoClockRate)
        _ = rewriter.rewrite(sourceGeneration: 4, sequenceNumber: 10, timestamp: 0, nowMs: 0)
        _ = rewriter.rewrite(sourceGeneration: 4, sequenceNumber: 11, timestamp: 0, nowMs: 0)
        _ = rewriter.rewrite(sourceGeneration: 5, sequenceNumber: 2000, timestamp: 0, nowMs: 100)
        let lateOldGenerationPacket = rewriter.rewrite(sourceGeneration: 4, sequenceNumber: 12, timestamp: 0, nowMs: 101)
        #expect(lateOldGenerationPacket == nil)
        let olderGenerationPacket = rewriter.rewrite(sourceGeneration: 3, sequenceNumber: 2001, timestamp: 0, nowMs: 101)
        #expect(olderGenerationPacket == nil)
        // Packets of the current generation older than its first packet would collide with the
        // previous generation's output numbers.
        let beforeGenerationStart = rewriter.rewrite(sourceGeneration: 5, sequenceNumber: 1999, timestamp: 0, nowMs: 102)
        #expect(beforeGenerationStart == nil)
        let afterGenerationStart = rewriter.rewrite(sourceGeneration: 5, sequenceNumber: 2001, timestamp: 0, nowMs: 102)
        #expect(afterGenerationStart?.sequenceNumber == 3)
        #expect(rewriter.lastOutputSequenceNumber == 3)
    }

    @Test func generationNumbersWrapAround() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 0,
            clockRate: Self.videoClockRate)
        _ = rewriter.rewrite(sourceGeneration: .max, sequenceNumber: 10, timestamp: 0, nowMs: 0)
        let newerGenerationPacket = rewriter.rewrite(sourceGeneration: 0, sequenceNumber: 500, timestamp: 0, nowMs: 20)
        #expect(newerGenerationPacket?.sequenceNumber == 1)
        let olderGenerationPacket = rewriter.rewrite(sourceGeneration: .max, sequenceNumber: 11, timestamp: 0, nowMs: 21)
        #expect(olderGenerationPacket == nil)
    }

    @Test func reverseMapCoversOnlyTheCurrentGeneration() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 65_530, initialTimestamp: 0,
            clockRate: Self.videoClockRate)
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_530, sourceGeneration: 1) == nil)
        #expect(rewriter.outputTimestamp(forSource: 0, sourceGeneration: 1) == nil)
        for sequence in UInt16(100)...104 {
            _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: sequence, timestamp: 0, nowMs: 0)
        }
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_532, sourceGeneration: 1) == 102)
        // Bound to another source (generation 2) that has sent nothing yet: the offsets are still
        // generation 1's, and would name another packet of the new source.
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_532, sourceGeneration: 2) == nil)

        // Second generation starts at output 65 535 and wraps to 0, 1.
        for sequence in UInt16(7)...9 {
            _ = rewriter.rewrite(sourceGeneration: 2, sequenceNumber: sequence, timestamp: 0, nowMs: 10)
        }
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_535, sourceGeneration: 2) == 7)
        #expect(rewriter.sourceSequenceNumber(forOutput: 0, sourceGeneration: 2) == 8)
        #expect(rewriter.sourceSequenceNumber(forOutput: 1, sourceGeneration: 2) == 9)
        // Previous generation and numbers not produced yet.
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_532, sourceGeneration: 2) == nil)
        #expect(rewriter.sourceSequenceNumber(forOutput: 65_534, sourceGeneration: 2) == nil)
        #expect(rewriter.sourceSequenceNumber(forOutput: 2, sourceGeneration: 2) == nil)
    }

    @Test func senderReportTimestampTranslatesWithCurrentOffset() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 100,
            clockRate: Self.videoClockRate)
        _ = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: 0, timestamp: 0xFFFF_FFF0, nowMs: 0)
        #expect(rewriter.outputTimestamp(forSource: 0xFFFF_FFF0, sourceGeneration: 1) == 100)
        #expect(rewriter.outputTimestamp(forSource: 0x10, sourceGeneration: 1) == 132)
        // Bound to another source, before its first packet: its timestamps cannot be translated yet.
        #expect(rewriter.outputTimestamp(forSource: 0x10, sourceGeneration: 2) == nil)
        _ = rewriter.rewrite(sourceGeneration: 2, sequenceNumber: 0, timestamp: 1_000_000, nowMs: 10)
        // The new generation starts 10 ms (900 ticks) after the previous packet's timestamp.
        let translated = rewriter.outputTimestamp(forSource: 1_000_000, sourceGeneration: 2)
        #expect(translated == 1000)
    }

    @Test func sentCountersWrapLikeSenderReportFields() {
        var rewriter = TrackRewriter(
            outputSSRC: 1, initialSequenceNumber: 0, initialTimestamp: 0,
            clockRate: Self.videoClockRate)
        rewriter.recordSent(payloadBytes: 1200)
        rewriter.recordSent(payloadBytes: 300)
        rewriter.recordSent(payloadBytes: -5)
        #expect(rewriter.packetsSent == 3)
        #expect(rewriter.octetsSent == 1500)
        rewriter.recordSent(payloadBytes: Int(UInt32.max))
        #expect(rewriter.octetsSent == 1499)
    }

    /// Durations and clock rates with the tick counts they convert to, modulo 2^32.
    static let tickConversions: [(milliseconds: Int64, clockRate: UInt32, ticks: UInt32)] = [
        (0, 90_000, 0),
        (1, 8000, 8),
        (1999, 48_000, 95_952),
        (1, 44_100, 44),
        (3_600_000, 90_000, 324_000_000),
        (86_400_123, 90_000, UInt32(truncatingIfNeeded: UInt64(86_400_123) * 90)),
        (-10, 90_000, 0),
    ]

    @Test(arguments: tickConversions)
    func clockTicksConversion(milliseconds: Int64, clockRate: UInt32, ticks: UInt32) {
        #expect(RTPClockTicks.ticks(milliseconds: milliseconds, clockRate: clockRate) == ticks)
    }
}

/// A generation far longer than half the sequence space keeps flowing and keeps its NACK map.
struct TrackRewriterLongGenerationTests {
    @Test func hundredThousandPacketsInOneGenerationAllPass() throws {
        var rewriter = TrackRewriter(outputSSRC: 7, initialSequenceNumber: 100, initialTimestamp: 0, clockRate: 90000)
        var source: UInt16 = 65000
        var previousOutput: UInt16?
        for index in 0..<100_000 {
            let rewritten = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: source, timestamp: UInt32(index) * 3000, nowMs: Int64(index))
            let numbers = try #require(rewritten, "packet \(index) was dropped")
            if let previousOutput { #expect(numbers.sequenceNumber == previousOutput &+ 1) }
            previousOutput = numbers.sequenceNumber
            source &+= 1
        }
        // A reordered packet just behind the highest still maps, and so does the NACK reverse map.
        let reordered = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: source &- 5, timestamp: 0, nowMs: 100_000)
        #expect(reordered != nil)
        #expect(rewriter.sourceSequenceNumber(forOutput: previousOutput! &- 3, sourceGeneration: 1) == source &- 4)
    }
}
