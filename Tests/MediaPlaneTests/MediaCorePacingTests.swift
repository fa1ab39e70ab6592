import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// Pacing a subscriber whose estimate rests on transport-wide feedback: a burst leaves in slices
/// at 2.5 times the estimate, in order and whole, on a scripted clock.
@Suite struct MediaCorePacingTests {
    static let publisher = PeerEndpoint(ip: 0x7F00_0001, port: 5000)
    static let subscriber = PeerEndpoint(ip: 0x7F00_0001, port: 6000)

    /// A publisher on transport 1 and a stamping subscriber on transport 2 that has sent one
    /// transport-wide feedback (on the first packet) when `feedback`, so that it is paced.
    static func harness(feedback: Bool = true) -> CoreHarness {
        let harness = CoreHarness()
        harness.addPlainTransport(1, remote: publisher)
        harness.addPlainTransport(2, remote: subscriber)
        harness.core.apply(.setCongestionControl(id: 2, CongestionControlSpec(sentSequenceExtensionId: 3)))
        harness.addVideoSource(10, transport: 1, ssrc: 0xAAAA)
        harness.addSink(20, transport: 2, outputSSRC: 0xBBBB)
        harness.bind(sink: 20, source: 10)
        harness.receive(packet(0, keyframe: true), on: 1, from: publisher)
        if feedback {
            let recorder = TransportFeedbackRecorder()
            recorder.record(sequenceNumber: 0, arrivalUs: harness.nowMs * 1000, ssrc: 0xBBBB, bytes: 1200)
            var bytes = [UInt8](repeating: 0, count: 256)
            let length = bytes.withUnsafeMutableBytes { recorder.writeFeedback(senderSSRC: 0xFEED, into: $0, at: 0, nowUs: harness.nowMs * 1000) }
            harness.receive(Array(bytes[0..<(length ?? 0)]), on: 2, from: subscriber)
        }
        // Long enough for the budget to fill again.
        harness.advance(ms: 100)
        return harness
    }

    static func packet(_ sequence: UInt16, keyframe: Bool = false) -> [UInt8] {
        ScriptedPacket.rtp(
            ssrc: 0xAAAA, sequenceNumber: 100 + sequence, timestamp: 9000, payload: ScriptedPacket.vp8Payload(keyframe: keyframe, size: 1180))
    }

    /// Sends `count` packets at once, then moves the clock 1 ms at a time for `ms`: the
    /// subscriber's RTP packets (probes and RTCP left out) with the millisecond each left in.
    static func burst(_ count: Int, on harness: CoreHarness, thenMs ms: Int) -> [(ms: Int, header: RTPHeader, bytes: [UInt8])] {
        var mark = harness.mark
        var sent: [(ms: Int, header: RTPHeader, bytes: [UInt8])] = []
        func collect(_ ms: Int) {
            for bytes in harness.sent(on: 2, since: mark) where !(192...223).contains(bytes[1]) {
                if let header = ScriptedPacket.header(of: bytes), header.ssrc == 0xBBBB { sent.append((ms, header, bytes)) }
            }
            mark = harness.mark
        }
        for index in 1...count { harness.receive(packet(UInt16(index)), on: 1, from: publisher) }
        collect(0)
        for step in 1...ms {
            harness.advance(ms: 1)
            collect(step)
        }
        return sent
    }

    @Test func aBurstLeavesInSlicesAtTwoAndAHalfTimesTheEstimateInOrderAndWhole() throws {
        let harness = Self.harness()
        let estimator = try #require(harness.core.transports[2]?.estimator)
        #expect(estimator.hasTransportFeedback)
        let rateBytesPerMs = MediaCore.pacingFactor * estimator.estimateBps / 8000
        let sent = Self.burst(20, on: harness, thenMs: 600)
        // Every packet, in order, whole: none lost, reordered or cut while held.
        #expect(sent.count == 20)
        let numbers = sent.map(\.header.sequenceNumber)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        let payload = Array(Self.packet(1)[RTPHeader.fixedHeaderLength...])
        #expect(sent.allSatisfy { Array($0.bytes[$0.header.payloadOffset...]) == payload })
        // The budget's depth (3 000 bytes) at once, then the rest at the pacing rate.
        #expect(sent.filter { $0.ms == 0 }.count == 2)
        let bytes = Double(sent.dropFirst(2).reduce(0) { $0 + $1.bytes.count })
        let expectedMs = bytes / rateBytesPerMs
        let lastMs = Double(sent.last?.ms ?? 0)
        #expect(lastMs >= expectedMs * 0.9 && lastMs <= expectedMs * 1.1 + 2, "last at \(lastMs) ms, expected about \(expectedMs)")
        #expect(harness.core.counters.pacedPackets > 0)
        #expect(harness.core.pacedTransports.isEmpty)
    }

    @Test func aQueueThatFillsWhileHeldGoesOutWholeAndNothingIsLost() throws {
        let harness = Self.harness()
        let slots = try #require(harness.core.transports[2]?.slotCount)
        let sent = Self.burst(slots + 8, on: harness, thenMs: 800)
        #expect(sent.count == slots + 8)
        let numbers = sent.map(\.header.sequenceNumber)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        // The full queue went at once: more than the budget alone would have let through.
        #expect(sent.filter { $0.ms == 0 }.count > 2)
        #expect(harness.drops(.sendBufferFull) == 0)
    }

    @Test func withoutTransportWideFeedbackNothingIsHeldBack() throws {
        let harness = Self.harness(feedback: false)
        let sent = Self.burst(20, on: harness, thenMs: 5)
        #expect(sent.filter { $0.ms == 0 }.count == 20)
        #expect(harness.core.counters.pacedPackets == 0)
    }

    @Test func aTransportRemovedWhileHoldingPacketsLeavesNothingBehind() throws {
        let harness = Self.harness()
        _ = Self.burst(20, on: harness, thenMs: 1)
        #expect(harness.core.pacedTransports.count == 1)
        harness.core.apply(.removeTransport(id: 2))
        #expect(harness.core.pacedTransports.isEmpty)
        harness.advance(ms: 50)
        #expect(harness.core.transports[2] == nil)
    }
}
