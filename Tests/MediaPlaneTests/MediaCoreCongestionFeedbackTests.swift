import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// Transport-wide congestion feedback to publishers: arrivals recorded on the receive path, and
/// feedback sent on the timer.
@Suite struct MediaCoreCongestionFeedbackTests {
    static let publisher = PeerEndpoint(ip: 0x7F00_0001, port: 5000)
    static let extensionId: UInt8 = 3

    /// An RTP packet carrying the transport-wide sequence number `transportSequence` under
    /// ``extensionId`` (RFC 8285 one-byte form).
    static func packet(ssrc: UInt32, sequenceNumber: UInt16, transportSequence: UInt16, keyframe: Bool = false) -> [UInt8] {
        var bytes = ScriptedPacket.video(ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 3000, keyframe: keyframe)
        bytes[0] |= 0x10
        let block: [UInt8] = [0xBE, 0xDE, 0x00, 0x01, extensionId << 4 | 1, UInt8(transportSequence >> 8), UInt8(truncatingIfNeeded: transportSequence), 0]
        bytes.insert(contentsOf: block, at: RTPHeader.fixedHeaderLength)
        return bytes
    }

    /// The transport-wide feedbacks sent on `transport` since `mark`: each one's packets.
    static func feedbacks(_ harness: CoreHarness, on transport: Int, since mark: Int = 0) -> [[(UInt16, Int64?)]] {
        harness.sent(on: transport, since: mark).compactMap { datagram in
            datagram.withUnsafeBytes { buffer -> [(UInt16, Int64?)]? in
                var iterator = RTCPPacketIterator(buffer)
                guard let view = iterator.next(), let common = RTCPFeedback(view: view, in: buffer),
                    let feedback = RTCPTransportFeedback(feedback: common, in: buffer)
                else { return nil }
                var packets: [(UInt16, Int64?)] = []
                feedback.forEachPacket(in: buffer) { packets.append(($0, $1)) }
                return packets
            }
        }
    }

    static func harnessWithPublisher(congestionControl: Bool = true) -> CoreHarness {
        let harness = CoreHarness()
        harness.addPlainTransport(1, remote: publisher)
        harness.addVideoSource(10, transport: 1, ssrc: 0xAAAA)
        if congestionControl {
            harness.core.apply(.setCongestionControl(id: 1, CongestionControlSpec(receivedSequenceExtensionId: extensionId)))
        }
        return harness
    }

    @Test func feedbackReportsEachPacketWithItsArrival() {
        let harness = Self.harnessWithPublisher()
        let start = harness.nowMs
        for index in 0..<5 {
            harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: UInt16(100 + index), transportSequence: UInt16(7 + index)), on: 1, from: Self.publisher)
            // Nothing is due before the first timer turn after the first packet.
            if index < 4 {
                harness.nowMs += 10
                harness.core.advanceClock(monotonicMs: harness.nowMs, unixMs: harness.nowMs + CoreHarness.unixOffsetMs)
            }
        }
        harness.advance(ms: 1)
        let feedbacks = Self.feedbacks(harness, on: 1)
        #expect(feedbacks.count == 1)
        let packets = feedbacks.first ?? []
        #expect(packets.map(\.0) == [7, 8, 9, 10, 11])
        // Arrivals 10 ms apart, on the relay's clock.
        let arrivals = packets.compactMap(\.1)
        #expect(arrivals.count == 5)
        for (index, arrival) in arrivals.enumerated() { #expect(arrival == (start + Int64(index) * 10) * 1000) }
        #expect(harness.core.counters.transportFeedbackSent == 1)
    }

    @Test func theNextFeedbackWaitsForItsIntervalAndReportsOnlyWhatIsNew() {
        let harness = Self.harnessWithPublisher()
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 1, transportSequence: 1), on: 1, from: Self.publisher)
        harness.advance(ms: 1)
        let mark = harness.mark
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 2, transportSequence: 2), on: 1, from: Self.publisher)
        harness.advance(ms: 50)
        #expect(Self.feedbacks(harness, on: 1, since: mark).isEmpty)
        // 100 ms until a rate is known.
        harness.advance(ms: 50)
        #expect(Self.feedbacks(harness, on: 1, since: mark).map { $0.map(\.0) } == [[2]])
    }

    @Test func packetsOfNoKnownStreamAreReportedToo() {
        // Padding probes on an RTX stream the relay never learnt still crossed the network.
        let harness = Self.harnessWithPublisher()
        harness.receive(Self.packet(ssrc: 0xBBBB, sequenceNumber: 1, transportSequence: 40), on: 1, from: Self.publisher)
        harness.advance(ms: 1)
        #expect(harness.drops(.unknownSSRC) == 1)
        #expect(Self.feedbacks(harness, on: 1).map { $0.map(\.0) } == [[40]])
    }

    @Test func aLostPacketIsReportedAsNotReceived() {
        let harness = Self.harnessWithPublisher()
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 1, transportSequence: 1), on: 1, from: Self.publisher)
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 3, transportSequence: 3), on: 1, from: Self.publisher)
        harness.advance(ms: 1)
        #expect(Self.feedbacks(harness, on: 1).map { $0.map { $0.1 != nil } } == [[true, false, true]])
    }

    @Test func withoutCongestionControlNothingIsRecorded() {
        let harness = Self.harnessWithPublisher(congestionControl: false)
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 1, transportSequence: 1), on: 1, from: Self.publisher)
        harness.advance(ms: 200)
        #expect(Self.feedbacks(harness, on: 1).isEmpty)
        #expect(harness.core.timerWaitMs(idleWaitMs: 20) == 20)
    }

    @Test func turningItOffOrClosingTheTransportStopsTheTimer() {
        let harness = Self.harnessWithPublisher()
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 1, transportSequence: 1), on: 1, from: Self.publisher)
        // Due now: the shell must not sleep.
        #expect(harness.core.timerWaitMs(idleWaitMs: 20) == 0)
        harness.core.apply(.setCongestionControl(id: 1, .none))
        #expect(harness.core.feedbackTransports.isEmpty)
        harness.core.apply(.setCongestionControl(id: 1, CongestionControlSpec(receivedSequenceExtensionId: Self.extensionId)))
        harness.core.apply(.removeTransport(id: 1))
        #expect(harness.core.feedbackTransports.isEmpty)
        harness.advance(ms: 200)
    }

    @Test func feedbackWaitsForAnAddressThatProvedItself() {
        let harness = CoreHarness()
        harness.addPlainTransport(1, remote: Self.publisher, addressGranted: false)
        harness.addVideoSource(10, transport: 1, ssrc: 0xAAAA)
        harness.core.apply(.setCongestionControl(id: 1, CongestionControlSpec(receivedSequenceExtensionId: Self.extensionId)))
        // From another address: dropped before anything is recorded.
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 1, transportSequence: 1), on: 1, from: PeerEndpoint(ip: 0x7F00_0001, port: 6000))
        harness.advance(ms: 200)
        #expect(Self.feedbacks(harness, on: 1).isEmpty)
        harness.receive(Self.packet(ssrc: 0xAAAA, sequenceNumber: 2, transportSequence: 2), on: 1, from: Self.publisher)
        harness.advance(ms: 1)
        #expect(Self.feedbacks(harness, on: 1).map { $0.map(\.0) } == [[2]])
    }
}
