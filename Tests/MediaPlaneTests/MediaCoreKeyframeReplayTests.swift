import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// A sink bound shortly after its source's last keyframe starts from that keyframe, replayed
/// from the retransmission buffer, instead of asking a publisher that would ignore the request.
@Suite struct MediaCoreKeyframeReplayTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let ssrc = MediaCoreForwardingTests.sourceSSRC
    static let output = MediaCoreForwardingTests.outputSSRC
    static let lateOutput: UInt32 = 0x3333_3333

    /// Source 10 with sink 20 started at a keyframe (sequence 100) and two packets after it.
    static func started(skipping missing: UInt16? = nil) -> CoreHarness {
        let h = MediaCoreForwardingTests.pair()
        for (offset, keyframe) in [true, false, false].enumerated() where 100 + UInt16(offset) != missing {
            h.receive(
                ScriptedPacket.video(ssrc: ssrc, sequenceNumber: 100 + UInt16(offset), timestamp: 9000 + UInt32(offset) * 3000, keyframe: keyframe),
                on: 1, from: publisher)
        }
        return h
    }

    /// Sink 21, as a WebRTC subscriber's is (`startsFromRecentKeyframe`), bound to source 10.
    static func bindLateSink(_ h: CoreHarness, startsFromRecentKeyframe: Bool = true) {
        h.core.apply(
            .addSink(
                MediaSinkSpec(
                    id: 21, transportId: 2, outputSSRC: lateOutput, isVideo: true, clockRate: 90_000, startsFromRecentKeyframe: startsFromRecentKeyframe)))
        h.bind(sink: 21, source: 10)
        h.core.flushAll()
    }

    @Test func aSinkBoundWithinTheHoldStartsAtOnceFromTheLastKeyframe() throws {
        let h = Self.started()
        h.advance(ms: 100)
        let mark = h.mark
        Self.bindLateSink(h)
        // The keyframe and both packets after it, in order, under the late sink's own numbers;
        // no request went to the publisher.
        let replayed = h.rtpSent(on: 2, since: mark)
        #expect(replayed.count == 3 && replayed.allSatisfy { $0.ssrc == Self.lateOutput })
        let first = try #require(replayed.first)
        #expect(replayed.map { $0.sequenceNumber &- first.sequenceNumber } == [0, 1, 2])
        #expect(replayed.map { $0.timestamp &- first.timestamp } == [0, 3000, 6000])
        #expect(h.rtcpTypes(on: 1, since: mark).isEmpty)
        #expect(h.core.sinks[21]?.waitingForKeyframe == false)
        #expect(h.core.counters.keyframeReplays == 1)
        // Live packets follow on both sinks, the late one continuing its numbers.
        let live = h.mark
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 103, timestamp: 18000, keyframe: false), on: 1, from: Self.publisher)
        let next = h.rtpSent(on: 2, since: live)
        #expect(next.map(\.ssrc).sorted() == [Self.output, Self.lateOutput].sorted())
        #expect(next.first { $0.ssrc == Self.lateOutput }?.sequenceNumber == first.sequenceNumber &+ 3)
    }

    @Test func anOlderKeyframeAGapOrASinkThatDoesNotAllowItMeansAskingTheSourceInstead() {
        let old = Self.started()
        old.advance(ms: KeyframeRequestThrottle.publisherHoldMs + 1)
        var mark = old.mark
        Self.bindLateSink(old)
        #expect(old.rtpSent(on: 2, since: mark).isEmpty)
        #expect(old.rtcpTypes(on: 1, since: mark) == [206])
        #expect(old.core.counters.keyframeReplays == 0)

        // Packet 101 never came: a replay would start the sink with a loss.
        let gap = Self.started(skipping: 101)
        gap.advance(ms: 100)
        mark = gap.mark
        Self.bindLateSink(gap)
        #expect(gap.rtpSent(on: 2, since: mark).isEmpty)
        #expect(gap.core.sinks[21]?.waitingForKeyframe == true)
        #expect(gap.core.counters.keyframeReplays == 0)

        // An SRTP subscriber's sink waits for a keyframe of its own.
        let srtp = Self.started()
        srtp.advance(ms: 100)
        mark = srtp.mark
        Self.bindLateSink(srtp, startsFromRecentKeyframe: false)
        #expect(srtp.rtpSent(on: 2, since: mark).isEmpty)
        #expect(srtp.core.counters.keyframeReplays == 0)
    }
}
