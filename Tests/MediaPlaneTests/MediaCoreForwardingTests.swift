import RTPWire
import Testing

@testable import MediaPlane

/// A publisher and a subscriber on plain transports, scripted packet by packet: keyframe gating,
/// rewriting, latching, keyframe requests.
@Suite struct MediaCoreForwardingTests {
    static let publisher = PeerEndpoint(ip: 0x7F00_0001, port: 5000)
    static let subscriber = PeerEndpoint(ip: 0x7F00_0001, port: 6000)
    static let sourceSSRC: UInt32 = 0x1111_1111
    static let outputSSRC: UInt32 = 0x2222_2222

    /// Publisher transport 1 with a VP8 source (10), subscriber transport 2 with a sink (20) bound to it.
    static func pair(rtx: (ssrc: UInt32, payloadType: UInt8)? = nil) -> CoreHarness {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: publisher)
        h.addPlainTransport(2, remote: subscriber)
        h.addVideoSource(10, transport: 1, ssrc: sourceSSRC, rtx: rtx)
        h.addSink(20, transport: 2, outputSSRC: outputSSRC)
        h.bind(sink: 20, source: 10)
        h.core.flushAll()
        return h
    }

    @Test func aNewSubscriberStartsAtAKeyframeWithItsOwnNumbers() throws {
        let h = Self.pair()
        // Binding asked the publisher for a keyframe (PLI, payload-specific feedback 206).
        #expect(h.rtcpTypes(on: 1) == [206])
        let mark = h.mark
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 100, timestamp: 9000, keyframe: false), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2, since: mark).isEmpty)
        #expect(h.drops(.waitingForKeyframe) == 1)

        for (offset, keyframe) in [true, false, false].enumerated() {
            h.receive(
                ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 101 + UInt16(offset), timestamp: 12000 + UInt32(offset) * 3000, keyframe: keyframe),
                on: 1, from: Self.publisher)
        }
        let headers = h.rtpSent(on: 2, since: mark)
        #expect(headers.count == 3)
        #expect(headers.allSatisfy { $0.ssrc == Self.outputSSRC })
        let first = try #require(headers.first)
        #expect(headers.map(\.sequenceNumber) == [first.sequenceNumber, first.sequenceNumber &+ 1, first.sequenceNumber &+ 2])
        #expect(headers.map { $0.timestamp &- first.timestamp } == [0, 3000, 6000])
        #expect(h.output.datagrams[mark...].allSatisfy { $0.transportId != 2 || $0.destination == Self.subscriber })
    }

    @Test func aTransportWithoutAnAddressLatchesTheFirstSenderAndRefusesOthers() {
        let h = CoreHarness()
        h.addPlainTransport(1)
        h.addVideoSource(10, transport: 1, ssrc: Self.sourceSSRC)
        let stranger = PeerEndpoint(ip: 0x7F00_0002, port: 7000)
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        #expect(h.core.transports[1]?.remote == Self.publisher)
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 2, timestamp: 0, keyframe: false), on: 1, from: stranger)
        #expect(h.drops(.unexpectedSource) == 1)
        #expect(h.core.transports[1]?.remote == Self.publisher)
        #expect(h.core.sources[10]?.report.packets == 1)
    }

    @Test func aSubscriberPictureLossRequestReachesThePublisherThrottled() {
        let h = Self.pair()
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        h.advance(ms: 1000)
        let mark = h.mark
        h.receive(ScriptedPacket.pictureLossIndication(mediaSSRC: Self.outputSSRC), on: 2, from: Self.subscriber)
        h.receive(ScriptedPacket.pictureLossIndication(mediaSSRC: Self.outputSSRC), on: 2, from: Self.subscriber)
        #expect(h.rtcpTypes(on: 1, since: mark) == [206])
        #expect(h.core.counters.keyframeRequestsReceived == 2)
    }

    @Test func aSenderReportReachesTheSubscriberInItsOwnNumbers() throws {
        let h = Self.pair()
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 1, timestamp: 50_000, keyframe: true), on: 1, from: Self.publisher)
        let forwarded = try #require(h.rtpSent(on: 2).first)
        let mark = h.mark
        h.receive(ScriptedPacket.senderReport(ssrc: Self.sourceSSRC, rtpTimestamp: 53_000), on: 1, from: Self.publisher)
        let report = try #require(h.sent(on: 2, since: mark).first { $0[1] == 200 })
        #expect(ScriptedPacket.word(report, at: 4) == Self.outputSSRC)
        #expect(ScriptedPacket.word(report, at: 16) == forwarded.timestamp &+ 3000)
        #expect(ScriptedPacket.word(report, at: 20) == 1)
    }

    @Test func aGapOfAFewPacketsIsNackedAtOnce() throws {
        let h = Self.pair()
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 500, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        let mark = h.mark
        h.receive(ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 504, timestamp: 3000, keyframe: false), on: 1, from: Self.publisher)
        let nack = try #require(h.sent(on: 1, since: mark).first { $0[1] == 205 })
        #expect(ScriptedPacket.word(nack, at: 8) == Self.sourceSSRC)
        // 501 and the bitmask for 502, 503.
        #expect(nack[12] == 0x01 && nack[13] == 0xF5)
        #expect(nack[14] == 0x00 && nack[15] == 0x03)
        #expect(h.core.counters.nacksSent == 1)
    }
}

extension MediaCoreForwardingTests {
    @Test func aRestartedSenderKeepsTheSubscriberGoingAndIsAskedForAKeyframe() throws {
        let h = Self.pair()
        for offset in 0..<3 {
            h.receive(
                ScriptedPacket.video(ssrc: Self.sourceSSRC, sequenceNumber: 100 + UInt16(offset), timestamp: 3000 * UInt32(offset), keyframe: offset == 0),
                on: 1, from: Self.publisher)
        }
        h.advance(ms: 600)
        let mark = h.mark
        // The same SSRC, numbering restarted more than half the number space away.
        for offset in 0..<3 {
            h.receive(
                ScriptedPacket.video(
                    ssrc: Self.sourceSSRC, sequenceNumber: 40_100 + UInt16(offset), timestamp: 900_000 + 3000 * UInt32(offset), keyframe: false), on: 1,
                from: Self.publisher)
        }
        let headers = h.rtpSent(on: 2)
        #expect(headers.count == 5, "the stray first packet is dropped, the rest flow")
        #expect(zip(headers, headers.dropFirst()).allSatisfy { $1.sequenceNumber == $0.sequenceNumber &+ 1 })
        #expect(h.rtcpTypes(on: 1, since: mark) == [206])
        #expect(h.drops(.staleSequence) == 1)
    }
}
