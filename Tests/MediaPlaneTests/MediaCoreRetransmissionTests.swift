import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// NACKs answered from the retransmission buffer, on the original SSRC or the sink's RFC 4588
/// stream, and a publisher's RTX packets unwrapped into its track.
@Suite struct MediaCoreRetransmissionTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let ssrc = MediaCoreForwardingTests.sourceSSRC
    static let output = MediaCoreForwardingTests.outputSSRC

    /// A pair that has forwarded a keyframe and two delta frames (source numbers 100-102).
    static func flowing() -> (CoreHarness, [RTPHeader]) {
        let h = MediaCoreForwardingTests.pair()
        for offset in 0..<3 {
            h.receive(
                ScriptedPacket.video(ssrc: ssrc, sequenceNumber: 100 + UInt16(offset), timestamp: 3000 * UInt32(offset), keyframe: offset == 0), on: 1,
                from: publisher)
        }
        return (h, h.rtpSent(on: 2))
    }

    @Test func aNackIsAnsweredWithTheSamePacketAndNumbers() throws {
        let (h, sent) = Self.flowing()
        #expect(sent.count == 3)
        let mark = h.mark
        h.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[1].sequenceNumber), on: 2, from: Self.subscriber)
        let again = h.rtpSent(on: 2, since: mark)
        #expect(again == [sent[1]])
        #expect(h.core.counters.retransmissionsSent == 1)
        // A number never sent is a miss, not a packet.
        h.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[2].sequenceNumber &+ 40), on: 2, from: Self.subscriber)
        #expect(h.core.counters.retransmissionsMissed == 1)
        #expect(h.rtpSent(on: 2, since: mark).count == 1)
    }

    /// A NACK read from the receive batch is answered from the retransmission buffer, which
    /// later packets of the batch may overwrite: the answer is copied whole, even to a plain
    /// subscriber whose live packets leave from the batch.
    @Test func aRetransmissionIsCopiedWholeWhileTheReceiveBatchIsHandled() throws {
        let h = MediaCoreForwardingTests.pair()
        for offset in 0..<2 {
            let payload = ScriptedPacket.vp8Payload(keyframe: offset == 0, size: 1100)
            h.receive(
                ScriptedPacket.rtp(ssrc: Self.ssrc, sequenceNumber: 100 + UInt16(offset), timestamp: 3000 * UInt32(offset), marker: true, payload: payload),
                on: 1, from: Self.publisher)
        }
        let sent = h.rtpSent(on: 2)
        #expect(sent.count == 2)
        let mark = h.mark
        var nack = ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[0].sequenceNumber) + [UInt8](repeating: 0, count: 64)
        h.core.handlesReceiveBatch = true
        nack.withUnsafeMutableBytes { h.core.handleDatagram(on: h.core.transports[2]!, buffer: $0.baseAddress!, length: $0.count - 64, from: Self.subscriber) }
        #expect(!h.core.queuedFromReceiveBatch, "nothing of the answer is left to be read from elsewhere")
        #expect(h.core.handlesReceiveBatch)
        h.core.handlesReceiveBatch = false
        h.core.flushAll()
        #expect(h.rtpSent(on: 2, since: mark) == [sent[0]])
        #expect(h.core.counters.retransmissionsSent == 1)
    }

    @Test func aSinkWithAnRTXStreamGetsRetransmissionsThere() throws {
        let (h, sent) = Self.flowing()
        h.core.apply(.setSinkRetransmission(sink: 20, ssrc: 0x3333, payloadType: 97))
        let mark = h.mark
        h.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[0].sequenceNumber, lostBitmask: 0b1), on: 2, from: Self.subscriber)
        let datagrams = h.sent(on: 2, since: mark)
        #expect(datagrams.count == 2)
        let headers = datagrams.compactMap(ScriptedPacket.header(of:))
        #expect(headers.allSatisfy { $0.ssrc == 0x3333 && $0.payloadType == 97 })
        #expect(headers[1].sequenceNumber == headers[0].sequenceNumber &+ 1)
        // The original sequence number leads the payload.
        let osn = datagrams.map { UInt16($0[12]) << 8 | UInt16($0[13]) }
        #expect(osn == [sent[0].sequenceNumber, sent[1].sequenceNumber])
        #expect(headers[0].timestamp == sent[0].timestamp)
    }

    @Test func aPublishersRTXPacketContinuesAsItsTrack() throws {
        let h = MediaCoreForwardingTests.pair(rtx: (0x4444, 97))
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 100, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        let mark = h.mark
        // Packet 101 arrives only as a retransmission: OSN 101, then the payload.
        let payload: [UInt8] = [0x00, 101] + ScriptedPacket.vp8Payload(keyframe: false)
        h.receive(ScriptedPacket.rtp(ssrc: 0x4444, sequenceNumber: 7, timestamp: 3000, payloadType: 97, payload: payload), on: 1, from: Self.publisher)
        let forwarded = h.sent(on: 2, since: mark)
        #expect(forwarded.count == 1)
        let header = try #require(forwarded.first.flatMap(ScriptedPacket.header(of:)))
        #expect(header.ssrc == Self.output && header.payloadType == 96)
        #expect(Array(forwarded[0][12...]) == ScriptedPacket.vp8Payload(keyframe: false))
        #expect(h.core.counters.retransmissionsReceived == 1)
        // A padding-only probe on the RTX stream ends there.
        h.receive(ScriptedPacket.rtp(ssrc: 0x4444, sequenceNumber: 8, timestamp: 3000, payloadType: 97, payload: [0x00]), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2, since: mark).count == 1)
    }

    /// A packet that arrives again is forwarded once: repeated by the network, repaired over RTX
    /// after it had come late, or resent over RTX as a bandwidth probe. A late packet that never
    /// came before still goes on.
    @Test func aPacketThatArrivesAgainIsForwardedOnce() throws {
        let h = MediaCoreForwardingTests.pair(rtx: (0x4444, 97))
        for sequenceNumber: UInt16 in [100, 101, 103] {
            h.receive(
                ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: sequenceNumber, timestamp: 0, keyframe: sequenceNumber == 100), on: 1,
                from: Self.publisher)
        }
        let mark = h.mark
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 103, timestamp: 0, keyframe: false), on: 1, from: Self.publisher)
        h.receive(
            ScriptedPacket.rtp(
                ssrc: 0x4444, sequenceNumber: 7, timestamp: 0, payloadType: 97, payload: [0x00, 100] + ScriptedPacket.vp8Payload(keyframe: true)),
            on: 1, from: Self.publisher)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty)
        #expect(h.drops(.duplicate) == 2)
        // 102 was lost so far: its late arrival, then its repair.
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 102, timestamp: 0, keyframe: false), on: 1, from: Self.publisher)
        h.receive(
            ScriptedPacket.rtp(
                ssrc: 0x4444, sequenceNumber: 8, timestamp: 0, payloadType: 97, payload: [0x00, 102] + ScriptedPacket.vp8Payload(keyframe: false)),
            on: 1, from: Self.publisher)
        let forwarded = h.rtpSent(on: 2, since: mark)
        #expect(forwarded.map(\.ssrc) == [Self.output], "the late packet, once")
        #expect(h.drops(.duplicate) == 3)
    }

    /// A lone packet far from the stream's numbers (a stray) does not make the source forget what
    /// it forwarded: a packet arriving again after it, even with other bytes, is still a repeat,
    /// and a NACK is still answered with the packet first sent. The sink's rewriter drops the
    /// stray and keeps its offset, so the repeat would otherwise go out under an output number
    /// already used: for an SRTP subscriber, a second plaintext under one index.
    @Test func aStrayDoesNotLetAnEarlierPacketGoOutAgain() throws {
        let (h, sent) = Self.flowing()
        let first = h.sent(on: 2)
        #expect(first.count == 3)
        let mark = h.mark
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 40_000, timestamp: 90_000, keyframe: false), on: 1, from: Self.publisher)
        let otherBytes = ScriptedPacket.vp8Payload(keyframe: false, size: 300)
        h.receive(ScriptedPacket.rtp(ssrc: Self.ssrc, sequenceNumber: 101, timestamp: 3000, marker: true, payload: otherBytes), on: 1, from: Self.publisher)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty)
        #expect(h.drops(.staleSequence) == 1, "the stray, by the sink's rewriter")
        #expect(h.drops(.duplicate) == 1)
        h.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[1].sequenceNumber), on: 2, from: Self.subscriber)
        #expect(h.sent(on: 2, since: mark) == [first[1]])
        // The stream goes on where it was.
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 103, timestamp: 9000, keyframe: false), on: 1, from: Self.publisher)
        #expect(h.rtpSent(on: 2, since: mark).map(\.sequenceNumber) == [sent[1].sequenceNumber, sent[2].sequenceNumber &+ 1])
    }

    /// Bound to another source, a sink answers no NACK until that source's first packet reaches
    /// it: until then the numbers it sent belong to the previous source, and the same numbers in
    /// the new source's buffer are other packets, which would go out under an index already used.
    @Test func aNackAfterARebindIsNotAnsweredFromTheNewSourcesBuffer() throws {
        let (h, sent) = Self.flowing()
        h.addVideoSource(11, transport: 1, ssrc: 0x0000_5151)
        for offset in 0..<3 {
            h.receive(ScriptedPacket.video(ssrc: 0x0000_5151, sequenceNumber: 100 + UInt16(offset), timestamp: 0, keyframe: false), on: 1, from: Self.publisher)
        }
        h.bind(sink: 20, source: 11)
        let mark = h.mark
        h.receive(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[1].sequenceNumber), on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty)
        #expect(h.core.counters.retransmissionsMissed == 1)
    }

    /// A pair that has forwarded `count` video packets of 1 200 bytes (source numbers 100 on,
    /// the first a keyframe); the headers the subscriber got.
    static func flowingFullSize(_ count: Int) -> (CoreHarness, [RTPHeader]) {
        let h = MediaCoreForwardingTests.pair()
        for offset in 0..<count {
            let payload = ScriptedPacket.vp8Payload(keyframe: offset == 0, size: 1188)
            h.receive(
                ScriptedPacket.rtp(ssrc: ssrc, sequenceNumber: 100 + UInt16(offset), timestamp: 3000 * UInt32(offset), marker: true, payload: payload),
                on: 1, from: publisher)
        }
        return (h, h.rtpSent(on: 2))
    }

    /// One NACK of 300 entries, each naming the same 17 packets (1 212 bytes), used to bring
    /// 5 100 retransmissions of 1 200 bytes: an amplification of about 5 000. Each packet now
    /// goes once per round trip, so the answer is at most 17 packets, about 17 times the NACK.
    @Test func aNackRepeatingItsEntriesBringsEachPacketOncePerRoundTrip() throws {
        let (h, sent) = Self.flowingFullSize(20)
        #expect(sent.count == 20)
        let nack = ScriptedPacket.nack(mediaSSRC: Self.output, entries: Array(repeating: (sent[2].sequenceNumber, 0xFFFF), count: 300))
        #expect(nack.count == 1212)
        var mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        let again = h.sent(on: 2, since: mark)
        #expect(h.core.counters.nacksReceived == 5100)
        #expect(again.count == 17)
        #expect(again.compactMap(ScriptedPacket.header(of:)).map(\.sequenceNumber) == sent[2..<19].map(\.sequenceNumber))
        #expect(again.reduce(0) { $0 + $1.count } <= 17 * nack.count)
        #expect(h.core.counters.retransmissionsSent == 17)
        #expect(h.drops(.retransmissionTooSoon) == 5100 - 17)

        // The same NACK within the round trip (100 ms while none is measured) brings nothing.
        h.advance(ms: 99)
        mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty)
        // After it, the packets go once more: a retransmission may have been lost too.
        h.advance(ms: 1)
        mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).count == 17)
        #expect(h.core.counters.retransmissionsSent == 34)
        // Never a packet stored more than a second ago.
        h.advance(ms: 1000)
        mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty)
        #expect(h.core.counters.retransmissionsSent == 34)
    }

    /// The round trip the subscriber's reports measured sets the interval, not the default.
    @Test func theSubscribersMeasuredRoundTripSetsTheInterval() throws {
        let (h, sent) = Self.flowingFullSize(3)
        let sink = try #require(h.core.sinks[20])
        // A report saying 300 ms went by between the relay's sender report and its arrival.
        sink.remoteStatistics.update(
            fractionLost: 0, cumulativeLost: 0, jitter: 0, lastSenderReport: 0x0001_0000, delaySinceLastSenderReport: 0, nowNTPMiddle32: 0x0001_0000 + 19_661)
        #expect(sink.remoteStatistics.roundTripTimeMs.map { Int($0.rounded()) } == 300)
        let nack = ScriptedPacket.nack(mediaSSRC: Self.output, packetID: sent[1].sequenceNumber)
        h.receive(nack, on: 2, from: Self.subscriber)
        h.advance(ms: 150)
        var mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).isEmpty, "past the default 100 ms, within the measured 300")
        // 19 661 / 65 536 s is a little over 300 ms: the interval rounds it up to 301.
        h.advance(ms: 151)
        mark = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: mark).count == 1)
    }

    /// A subscriber that asks again every round trip, with no new media, gets at most the
    /// burst of 128 KiB; what goes beyond it is refused and counted.
    @Test func retransmittedBytesStayWithinTheBudgetTheStreamEarns() throws {
        let (h, sent) = Self.flowingFullSize(20)
        let nack = ScriptedPacket.nack(mediaSSRC: Self.output, entries: [(sent[2].sequenceNumber, 0xFFFF)])
        let mark = h.mark
        for _ in 0..<9 {
            h.receive(nack, on: 2, from: Self.subscriber)
            h.advance(ms: 100)
        }
        let again = h.rtpSent(on: 2, since: mark)
        // 131 072 bytes hold 109 packets of 1 200.
        #expect(again.count == 109)
        #expect(h.drops(.retransmissionOverBudget) == 9 * 17 - 109)
        // New media earns half its bytes again: 4 packets of 1 200 pay for 2 more.
        for offset in 20..<24 {
            h.receive(
                ScriptedPacket.rtp(
                    ssrc: Self.ssrc, sequenceNumber: 100 + UInt16(offset), timestamp: 3000 * UInt32(offset), marker: true,
                    payload: ScriptedPacket.vp8Payload(keyframe: false, size: 1188)), on: 1, from: Self.publisher)
        }
        let afterMedia = h.mark
        h.receive(nack, on: 2, from: Self.subscriber)
        #expect(h.rtpSent(on: 2, since: afterMedia).count == 2)
    }
}
