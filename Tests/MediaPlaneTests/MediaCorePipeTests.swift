import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// Two media cores joined by a pair of rings, as two shards are: a publisher on one, a subscriber
/// on the other, scripted packet by packet on one thread.
@Suite struct MediaCorePipeTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let ssrc = MediaCoreForwardingTests.sourceSSRC
    static let output = MediaCoreForwardingTests.outputSSRC

    /// Core A (shard 0) owns the publisher and source 10; core B (shard 1) owns the subscriber,
    /// whose sink 20 is bound to B's remote source 10.
    static func shards(ringSlots: Int = 64) -> (a: CoreHarness, b: CoreHarness) {
        let a = CoreHarness()
        let b = CoreHarness()
        let aToB = PacketRing(slotCount: ringSlots, slotCapacity: 1600)
        let bToA = PacketRing(slotCount: ringSlots, slotCapacity: 1600)
        a.core.addLink(PipeLink(peer: 1, outbound: aToB, inbound: bToA))
        b.core.addLink(PipeLink(peer: 0, outbound: bToA, inbound: aToB))
        a.addPlainTransport(1, remote: publisher)
        a.addVideoSource(10, transport: 1, ssrc: ssrc)
        a.core.apply(.addPipeOutlet(source: 10, peer: 1))
        b.addPlainTransport(2, remote: subscriber)
        b.core.apply(.addRemoteSource(MediaSourceSpec(id: 10, transportId: -1, ssrc: ssrc, isVideo: true, codec: "VP8", clockRate: 90_000), peer: 0))
        b.addSink(20, transport: 2, outputSSRC: output)
        b.bind(sink: 20, source: 10)
        b.core.flushAll()
        return (a, b)
    }

    /// Moves whatever is on the rings, both ways, as the two shells would after a wake-up.
    static func exchange(_ a: CoreHarness, _ b: CoreHarness) {
        for _ in 0..<2 {
            b.core.drainLinks()
            b.core.flushAll()
            a.core.drainLinks()
            a.core.flushAll()
        }
    }

    @Test func aRemoteSubscriberAsksForItsKeyframeAcrossThePipeAndGetsTheStream() throws {
        let (a, b) = Self.shards()
        // B's subscriber bound: its keyframe request crossed to A, which sent the publisher a PLI.
        Self.exchange(a, b)
        #expect(a.rtcpTypes(on: 1) == [206])
        // B has A to wake (the shell does it once per batch), then nothing more.
        var peers: [Int] = []
        b.core.takeLinksToWake(into: &peers)
        #expect(peers == [0])
        peers = []
        b.core.takeLinksToWake(into: &peers)
        #expect(peers.isEmpty)

        for (offset, keyframe) in [false, true, false, false].enumerated() {
            a.receive(
                ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 300 + UInt16(offset), timestamp: 3000 * UInt32(offset), keyframe: keyframe), on: 1,
                from: Self.publisher)
        }
        a.core.takeLinksToWake(into: &peers)
        #expect(peers == [1])
        Self.exchange(a, b)
        let headers = b.rtpSent(on: 2)
        // The delta frame before the keyframe is gated on B, exactly as for a local subscriber.
        #expect(headers.count == 3)
        #expect(headers.allSatisfy { $0.ssrc == Self.output })
        #expect(zip(headers, headers.dropFirst()).allSatisfy { $1.sequenceNumber == $0.sequenceNumber &+ 1 })
        #expect(b.drops(.waitingForKeyframe) == 1)
        // One copy crossed per packet, whatever B does with it.
        #expect(a.core.sources[10]?.report.packets == 4 && b.core.sources[10]?.report.packets == 4)
    }

    /// A PK's viewers are bound when their answers land, a few hundred milliseconds apart and
    /// often just after a keyframe went to others. A sink bound then on another core than the
    /// publisher, when that keyframe cannot be replayed to it (a packet after it was lost), is
    /// not held back by the quiet period that keyframe opened: its request goes out
    /// as soon as the publisher listens again (a libwebrtc publisher ignores requests for a while
    /// after one it answered). A plain subscriber PLI in the quiet period is still merged, and a
    /// further waiting sink's request is held while one is in flight.
    @Test func aSinkBoundOnAnotherCoreJustAfterAKeyframeIsAskedForAtTheEndOfThePublishersHold() throws {
        let (a, b) = Self.shards()
        Self.exchange(a, b)
        #expect(a.rtcpTypes(on: 1) == [206])
        let first = a.nowMs
        a.advance(ms: 40)
        b.advance(ms: 40)
        a.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        // Packet 2 is lost, so the keyframe cannot be replayed to a later sink.
        a.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 3, timestamp: 3000, keyframe: false), on: 1, from: Self.publisher)
        Self.exchange(a, b)
        #expect(b.rtpSent(on: 2).count == 2, "sink 20 started at that keyframe")

        // 100 ms later a second subscriber on B is bound: its request waits for the publisher's
        // hold to end, not for the quiet period.
        a.advance(ms: 100)
        b.advance(ms: 100)
        let mark = a.mark
        b.addSink(21, transport: 2, outputSSRC: Self.output &+ 1)
        b.bind(sink: 21, source: 10)
        b.core.flushAll()
        Self.exchange(a, b)
        b.receive(ScriptedPacket.pictureLossIndication(mediaSSRC: Self.output), on: 2, from: Self.subscriber)
        Self.exchange(a, b)
        #expect(a.rtcpTypes(on: 1, since: mark).isEmpty)
        a.advance(ms: first + KeyframeRequestThrottle.publisherHoldMs - 1 - a.nowMs)
        #expect(a.rtcpTypes(on: 1, since: mark).isEmpty)
        a.advance(ms: 50)
        #expect(a.rtcpTypes(on: 1, since: mark) == [206], "sent at the end of the hold, well before the quiet period's")
        // A third sink bound while that request is in flight waits for its keyframe.
        b.advance(ms: 230)
        // (B's repeater would hold it anyway; stopped, it asks as another core's repeater would.)
        b.core.sources[10]?.repeater.stop()
        b.addSink(22, transport: 2, outputSSRC: Self.output &+ 2)
        b.bind(sink: 22, source: 10)
        b.core.flushAll()
        Self.exchange(a, b)
        #expect(a.rtcpTypes(on: 1, since: mark) == [206])
        a.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 4, timestamp: 6000, keyframe: true), on: 1, from: Self.publisher)
        Self.exchange(a, b)
        #expect(b.rtpSent(on: 2).filter { $0.ssrc != Self.output }.count == 2, "sinks 21 and 22 started at the keyframe asked for sink 21")
    }

    @Test func theRemoteSideAnswersNacksAndRewritesSenderReportsItself() throws {
        let (a, b) = Self.shards()
        for offset in 0..<3 {
            a.receive(
                ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 10 + UInt16(offset), timestamp: 1000 + 3000 * UInt32(offset), keyframe: offset == 0),
                on: 1, from: Self.publisher)
        }
        Self.exchange(a, b)
        let sent = b.rtpSent(on: 2)
        #expect(sent.count == 3)
        let mark = b.mark
        b.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[1].sequenceNumber), on: 2, from: Self.subscriber)
        #expect(b.rtpSent(on: 2, since: mark) == [sent[1]])
        let aMark = a.mark
        a.receive(ScriptedPacket.senderReport(ssrc: Self.ssrc, rtpTimestamp: 1000 + 9000), on: 1, from: Self.publisher)
        Self.exchange(a, b)
        let report = try #require(b.sent(on: 2, since: mark).first { $0[1] == 200 })
        #expect(ScriptedPacket.word(report, at: 4) == Self.output)
        #expect(ScriptedPacket.word(report, at: 16) == sent[0].timestamp &+ 9000)
        // Nothing went back to the publisher for B's NACK: the retransmission came from B's buffer.
        #expect(a.sent(on: 1, since: aMark).isEmpty)
    }

    @Test func aFullPipeDropsAndCountsInsteadOfWaiting() {
        let (a, b) = Self.shards(ringSlots: 2)
        Self.exchange(a, b)
        for offset in 0..<5 {
            a.receive(
                ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 50 + UInt16(offset), timestamp: 0, keyframe: offset == 0), on: 1, from: Self.publisher)
        }
        #expect(a.drops(.pipeFull) == 3)
        Self.exchange(a, b)
        #expect(b.rtpSent(on: 2).count == 2)
    }

    @Test func removingTheOutletStopsTheCopies() {
        let (a, b) = Self.shards()
        Self.exchange(a, b)
        a.core.apply(.removePipeOutlet(source: 10, peer: 1))
        a.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        Self.exchange(a, b)
        #expect(b.rtpSent(on: 2).isEmpty)
        #expect(b.core.sources[10]?.report.packets == 0)
    }

    /// A link both ends let go of is freed, rings included, and whatever still used it at an
    /// end (a remote source, an outlet) goes with it rather than outlive its placeholder.
    @Test func aLinkBothEndsLetGoOfIsFreedWithWhatUsedIt() throws {
        let (a, b) = Self.shards()
        Self.exchange(a, b)
        weak let forward = try #require(a.core.links[1]?.outbound as? PacketRing)
        weak let backward = try #require(a.core.links[1]?.inbound as? PacketRing)
        b.core.apply(.removeLink(peer: 0))
        #expect(b.core.links.isEmpty)
        #expect(b.core.sources[10] == nil, "the remote source went with its link")
        #expect(b.core.sinks[20]?.source == nil)
        #expect(forward != nil, "A still holds the rings")
        a.core.apply(.removeLink(peer: 1))
        #expect(a.core.links.isEmpty)
        #expect(a.core.sources[10]?.outlets.isEmpty == true)
        #expect(forward == nil && backward == nil, "both ends let go: the rings are freed")
        // The publisher's packets stay on their shard, and nothing counts as a full pipe.
        a.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        #expect(a.core.sources[10]?.report.packets == 1)
        #expect(a.drops(.pipeFull) == 0)
    }
}
