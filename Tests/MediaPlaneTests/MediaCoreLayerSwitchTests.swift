import RTPWire
import Testing

@testable import MediaPlane

/// Simulcast layer switches: a sink moves to another source at that source's next keyframe, with
/// its numbers running on, and never stops in between.
@Suite struct MediaCoreLayerSwitchTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let big: UInt32 = 0xB16
    static let small: UInt32 = 0x5A11

    @Test func aSwitchWaitsForTheNewLayersKeyframeAndKeepsNumbersContinuous() throws {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: Self.publisher)
        h.addPlainTransport(2, remote: MediaCoreForwardingTests.subscriber)
        h.addVideoSource(10, transport: 1, ssrc: Self.big)
        h.addVideoSource(11, transport: 1, ssrc: Self.small)
        h.addSink(20, transport: 2, outputSSRC: 0x2222)
        h.bind(sink: 20, source: 10)
        var bigSequence: UInt16 = 1
        var smallSequence: UInt16 = 5000
        func sendBig(_ keyframe: Bool) {
            h.receive(
                ScriptedPacket.video(ssrc: Self.big, sequenceNumber: bigSequence, timestamp: UInt32(bigSequence) * 3000, keyframe: keyframe), on: 1,
                from: Self.publisher)
            bigSequence += 1
        }
        func sendSmall(_ keyframe: Bool) {
            h.receive(
                ScriptedPacket.video(ssrc: Self.small, sequenceNumber: smallSequence, timestamp: UInt32(smallSequence) * 3000, keyframe: keyframe), on: 1,
                from: Self.publisher)
            smallSequence += 1
        }
        sendBig(true)
        sendBig(false)
        let mark = h.mark
        h.core.apply(.switchSource(sink: 20, source: 11))
        h.core.flushAll()
        // The small layer was asked for a keyframe.
        #expect(h.rtcpTypes(on: 1, since: mark) == [206])
        sendSmall(false)
        sendBig(false)
        sendSmall(true)
        sendBig(false)
        sendSmall(false)
        let headers = h.rtpSent(on: 2)
        // big key, big, big (still on big while small has no keyframe), small key, small.
        #expect(headers.count == 5)
        #expect(zip(headers, headers.dropFirst()).allSatisfy { $1.sequenceNumber == $0.sequenceNumber &+ 1 })
        #expect(Set(headers.map(\.ssrc)) == [0x2222])
        #expect(h.core.sinks[20]?.source?.ssrc == Self.small)
        #expect(h.core.sources[10]?.sinks.isEmpty == true)
    }
}
