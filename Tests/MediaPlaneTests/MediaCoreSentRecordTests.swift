import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// An SRTP subscriber's record of what went out under each output number (its SRTP index): no
/// number carries two different packets, on the live path or in a repair, even where the
/// source's duplicate window and the subscriber's rewriter place a number differently.
@Suite struct MediaCoreSentRecordTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let ssrc = MediaCoreForwardingTests.sourceSSRC

    /// A plain publisher and an AES-GCM subscriber whose sink is bound to its video source.
    static func pair() throws -> CoreHarness {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: publisher)
        let keys = (0..<SRTPProfile.aeadAES128GCM.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) }
        try h.addSRTPTransport(2, remote: subscriber, relayKeys: keys, peerKeys: keys.reversed())
        h.addVideoSource(10, transport: 1, ssrc: ssrc)
        h.addSink(20, transport: 2, outputSSRC: MediaCoreForwardingTests.outputSSRC)
        h.bind(sink: 20, source: 10)
        h.core.flushAll()
        return h
    }

    /// The sequence numbers of the SRTP packets sent to the subscriber (they travel in the clear).
    static func numbers(_ h: CoreHarness, since mark: Int) -> [UInt16] {
        h.sent(on: 2, since: mark).filter { $0.count > 12 && !($0[1] >= 192 && $0[1] <= 223) }.map { UInt16($0[2]) << 8 | UInt16($0[3]) }
    }

    func video(_ h: CoreHarness, _ sequenceNumber: UInt16, keyframe: Bool = false, size: Int = 200) {
        h.receive(
            ScriptedPacket.rtp(
                ssrc: Self.ssrc, sequenceNumber: sequenceNumber, timestamp: 3000 * UInt32(sequenceNumber), marker: true,
                payload: ScriptedPacket.vp8Payload(keyframe: keyframe, size: size)), on: 1, from: Self.publisher)
    }

    /// Only late packets came for a second, so the subscriber's rewriter saw a silence that the
    /// source's window did not (a late number is new to the window). The rewriter restarts at the
    /// next far packet at once, the window waits for a far packet's successor; with that
    /// successor lost, the window forgets the first far packet, and a repeat of it with other
    /// bytes maps to the output number it went out under. The record drops it, and a NACK for
    /// that number is not answered from the buffer, which now holds the repeat.
    @Test func aRepeatTheWindowMissesStillGoesOutOnce() throws {
        let h = try Self.pair()
        let mark = h.mark
        for number: UInt16 in [100, 101, 102] { video(h, number, keyframe: number == 100) }
        h.advance(ms: 600)
        video(h, 50)
        h.advance(ms: 500)
        for number: UInt16 in [30_000, 30_002, 30_003] { video(h, number) }
        let numbers = Self.numbers(h, since: mark)
        #expect(numbers.count == 6)
        let restart = numbers[3]
        video(h, 30_000, size: 400)
        #expect(Self.numbers(h, since: mark) == numbers, "the repeat did not go out")
        #expect(h.drops(.duplicate) == 1)

        let sink = try #require(h.core.sinks[20])
        let missed = h.core.counters.retransmissionsMissed
        h.core.retransmit(restart, to: sink)
        h.core.flushAll()
        #expect(h.core.counters.retransmissionsMissed == missed + 1)
        #expect(Self.numbers(h, since: mark) == numbers)
        // A packet the buffer still holds as it went out is repaired under its number.
        h.core.retransmit(numbers[5], to: sink)
        h.core.flushAll()
        #expect(Self.numbers(h, since: mark) == numbers + [numbers[5]])
    }

    /// A new payload type changes the bytes a repair would carry: packets sent before it are no
    /// longer repaired under their first index, packets sent after it are.
    @Test func aNewPayloadTypeEndsRepairsOfEarlierPackets() throws {
        let h = try Self.pair()
        let mark = h.mark
        for number: UInt16 in [100, 101] { video(h, number, keyframe: number == 100) }
        h.core.apply(.setSinkPayloadType(sink: 20, payloadType: 98))
        video(h, 102)
        let numbers = Self.numbers(h, since: mark)
        #expect(numbers.count == 3)
        let sink = try #require(h.core.sinks[20])
        let (sent, missed) = (h.core.counters.retransmissionsSent, h.core.counters.retransmissionsMissed)
        for number in numbers { h.core.retransmit(number, to: sink) }
        h.core.flushAll()
        #expect(h.core.counters.retransmissionsMissed == missed + 2)
        #expect(h.core.counters.retransmissionsSent == sent + 1)
        #expect(Self.numbers(h, since: mark) == numbers + [numbers[2]])
    }
}
