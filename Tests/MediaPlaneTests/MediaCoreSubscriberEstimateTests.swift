import NetworkImpairment
import RTPWire
import StreamCore
import Testing

@testable import MediaPlane

/// The relay's estimate of a subscriber's downlink: every packet sent to a transport that
/// stamps carries the next transport-wide number, and the subscriber's feedback on them, read
/// back through a scripted link, drives the estimate. Time is scripted throughout.
@Suite struct MediaCoreSubscriberEstimateTests {
    static let publisher = PeerEndpoint(ip: 0x7F00_0001, port: 5000)
    static let subscriber = PeerEndpoint(ip: 0x7F00_0001, port: 6000)
    static let transportWideId: UInt8 = 3
    static let audioLevelId: UInt8 = 2
    static let rtxSSRC: UInt32 = 0xBBBC

    /// A publisher on transport 1 (`source` 10, SSRC 0xAAAA) and a subscriber on transport 2
    /// stamping transport-wide numbers, its sink 20 bound to the source.
    static func harness(
        video: Bool = true, stamps: Bool = true, rtx: Bool = false, configuration: MediaPlaneConfiguration = MediaPlaneConfiguration()
    ) -> CoreHarness {
        let harness = CoreHarness(configuration: configuration)
        harness.addPlainTransport(1, remote: publisher)
        harness.addPlainTransport(2, remote: subscriber)
        if stamps { harness.core.apply(.setCongestionControl(id: 2, CongestionControlSpec(sentSequenceExtensionId: transportWideId))) }
        if video {
            harness.addVideoSource(10, transport: 1, ssrc: 0xAAAA)
        } else {
            harness.addAudioSource(10, transport: 1, ssrc: 0xAAAA, audioLevelExtensionId: 1)
        }
        harness.addSink(20, transport: 2, outputSSRC: 0xBBBB, isVideo: video)
        // An RFC 4588 stream for the subscriber: what probes pad on.
        if rtx { harness.core.apply(.setSinkRetransmission(sink: 20, ssrc: rtxSSRC, payloadType: 97)) }
        harness.bind(sink: 20, source: 10)
        return harness
    }

    static func transportWideNumber(of bytes: [UInt8]) -> UInt16? {
        bytes.withUnsafeBytes { buffer in
            guard let header = RTPHeader.parse(buffer) else { return nil }
            return RTPHeaderExtensions.transportWideSequenceNumber(in: buffer, header: header, id: transportWideId)
        }
    }

    @Test func everyPacketToAStampingSubscriberCarriesTheNextNumberAndItsPayloadIntact() throws {
        let harness = Self.harness()
        var sent: [[UInt8]] = []
        for index in 0..<5 {
            let payload = ScriptedPacket.vp8Payload(keyframe: index == 0, size: 300)
            sent.append(payload)
            harness.receive(
                ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: UInt16(100 + index), timestamp: 9000, payload: payload), on: 1, from: Self.publisher)
        }
        let packets = harness.sent(on: 2).filter { !(192...223).contains($0[1]) }
        #expect(packets.map(Self.transportWideNumber(of:)) == [0, 1, 2, 3, 4])
        for (packet, payload) in zip(packets, sent) {
            let header = try #require(ScriptedPacket.header(of: packet))
            #expect(header.ssrc == 0xBBBB)
            // One word of extension: 0xBEDE, its length, then the number under id 3.
            #expect(header.payloadOffset == RTPHeader.fixedHeaderLength + 8)
            #expect(Array(packet[header.payloadOffset...]) == payload)
        }
        #expect(harness.core.transports[2]?.estimator?.log.capacity == SentPacketLog.defaultCapacity)
    }

    @Test func anAudioLevelAndTheNumberShareTheBlock() throws {
        let harness = Self.harness(video: false)
        harness.core.transports[2]?.audioLevelExtensionId = Self.audioLevelId
        for index in 0..<3 {
            var packet = ScriptedPacket.audio(ssrc: 0xAAAA, sequenceNumber: UInt16(index), timestamp: UInt32(index) * 960)
            // The publisher's audio level under its id 1: level 42, voice.
            packet[0] |= 0x10
            packet.insert(contentsOf: [0xBE, 0xDE, 0x00, 0x01, 0x10, 0x80 | 42, 0, 0], at: RTPHeader.fixedHeaderLength)
            harness.receive(packet, on: 1, from: Self.publisher)
        }
        let packets = harness.sent(on: 2).filter { !(192...223).contains($0[1]) }
        #expect(packets.map(Self.transportWideNumber(of:)) == [0, 1, 2])
        for packet in packets {
            let level = packet.withUnsafeBytes { buffer -> UInt8? in
                guard let header = RTPHeader.parse(buffer) else { return nil }
                #expect(header.payloadOffset == RTPHeader.fixedHeaderLength + 12)
                return RTPHeaderExtensions.audioLevel(in: buffer, header: header, id: Self.audioLevelId).map { $0.level | ($0.voiceActivity ? 0x80 : 0) }
            }
            let voicedLevel42: UInt8 = 0x80 | 42
            #expect(level == voicedLevel42)
        }
    }

    @Test func aTransportThatDoesNotStampSendsNoNumberAndEstimatesFromReceiverReports() throws {
        let harness = Self.harness(stamps: false)
        harness.receive(
            ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: 1, timestamp: 9000, payload: ScriptedPacket.vp8Payload(keyframe: true)), on: 1,
            from: Self.publisher)
        let packet = try #require(harness.sent(on: 2).first)
        #expect(Self.transportWideNumber(of: packet) == nil)
        let estimator = try #require(harness.core.transports[2]?.estimator)
        #expect(estimator.log.capacity == 1)
        let before = estimator.estimateBps
        // A receiver report about the sink: a quarter of its packets lost.
        let report: [UInt8] = [0x81, 201, 0, 7, 0, 0, 0xFE, 0xED, 0, 0, 0xBB, 0xBB, 64, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        harness.advance(ms: 1000)
        harness.receive(report, on: 2, from: Self.subscriber)
        #expect(estimator.estimateBps < before)
        harness.core.publishReport()
        let exported = try #require(harness.reports.read().transports[2]?.bandwidthEstimate)
        #expect(exported.source == .receiverReports)
        #expect(exported.estimateBps == Int(estimator.estimateBps))
    }

    @Test func heavyLossInTheReportsOfASubscriberWithoutFeedbackIsAnnouncedAtOnceAndNotTwiceInTwoSeconds() async throws {
        let harness = Self.harness(stamps: false)
        harness.receive(
            ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: 1, timestamp: 9000, payload: ScriptedPacket.vp8Payload(keyframe: true)), on: 1,
            from: Self.publisher)
        func report(lost fraction: UInt8) -> [UInt8] {
            [0x81, 201, 0, 7, 0, 0, 0xFE, 0xED, 0, 0, 0xBB, 0xBB, fraction, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        }
        harness.advance(ms: 1000)
        // 5 % lost: not heavy. Then a quarter: announced. A second quarter a second later: not again.
        harness.receive(report(lost: 13), on: 2, from: Self.subscriber)
        harness.receive(report(lost: 64), on: 2, from: Self.subscriber)
        harness.advance(ms: 1000)
        harness.receive(report(lost: 64), on: 2, from: Self.subscriber)
        // Two seconds after the first: announced again.
        harness.advance(ms: 1000)
        harness.receive(report(lost: 128), on: 2, from: Self.subscriber)
        harness.core.events.finish()
        var announced: [MediaPlaneEvent] = []
        for await event in harness.events { announced.append(event) }
        #expect(announced == [.reportedLoss(transportId: 2, lossFraction: 0.25), .reportedLoss(transportId: 2, lossFraction: 0.5)])
    }

    /// What a scripted run of `seconds` left: the subscriber's estimate, as the report exports it.
    struct Run {
        var estimate: BandwidthEstimateReport
        var delivered: Int
        var numbersInOrder: Bool
    }

    /// Streams `rateBps` of video from the publisher for `seconds` (or, when `followsEstimate`,
    /// at the relay's estimate, read every 100 ms, as a layer choice would), through a link to
    /// the subscriber impaired by `impairment`; the subscriber reports every arrival in
    /// transport-wide feedback at libwebrtc's cadence (the relay's own recorder).
    static func run(
        rateBps: Int, followsEstimate: Bool = false, probes: Bool = false, impairment: LinkImpairment, liftAtSecond: Int? = nil, seconds: Int,
        sample: ((Int64, Double) -> Void)? = nil
    ) throws -> Run {
        let harness = Self.harness(rtx: probes)
        let startUs = harness.nowMs * 1000
        var nowUs = startUs
        var link = ImpairedLink<[UInt8]>(impairment, nowUs: nowUs, seed: 7)
        let recorder = TransportFeedbackRecorder()
        let packetBytes = 1200
        var intervalUs = Int64(packetBytes * 8) * 1_000_000 / Int64(rateBps)
        var nextPacketUs = nowUs
        var sequence: UInt16 = 0
        var mark = harness.mark
        var delivered = 0
        var lastNumber: UInt16?
        var numbersInOrder = true
        var feedback = [UInt8](repeating: 0, count: 1500)
        while nowUs < startUs + Int64(seconds) * 1_000_000 {
            if let liftAtSecond, nowUs == startUs + Int64(liftAtSecond) * 1_000_000 {
                link.reconfigure(LinkImpairment(delayMs: impairment.delayMs), nowUs: nowUs)
            }
            if let sample, (nowUs - startUs) % 100_000 == 0, let estimate = harness.core.transports[2]?.estimator?.estimateBps {
                sample(nowUs - startUs, estimate)
            }
            harness.core.advanceClock(monotonicUs: nowUs, unixMs: nowUs / 1000 + CoreHarness.unixOffsetMs)
            harness.core.runTimers()
            harness.core.flushAll()
            if followsEstimate, (nowUs - startUs) % 100_000 == 0, let estimate = harness.core.transports[2]?.estimator?.estimateBps {
                intervalUs = Int64(Double(packetBytes * 8) * 1_000_000 / min(estimate, Double(rateBps)))
            }
            while nextPacketUs <= nowUs {
                let payload = ScriptedPacket.vp8Payload(keyframe: sequence == 0, size: packetBytes - RTPHeader.fixedHeaderLength)
                harness.receive(
                    ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: sequence, timestamp: UInt32(sequence) * 300, payload: payload), on: 1,
                    from: Self.publisher)
                sequence &+= 1
                nextPacketUs += intervalUs
            }
            for packet in harness.sent(on: 2, since: mark) where !(192...223).contains(packet[1]) {
                guard let number = Self.transportWideNumber(of: packet) else {
                    numbersInOrder = false
                    continue
                }
                if let lastNumber, number != lastNumber &+ 1 { numbersInOrder = false }
                lastNumber = number
                _ = link.enter(packet, bytes: packet.count, nowUs: nowUs)
            }
            mark = harness.mark
            link.advance(to: nowUs) { packet in
                delivered += 1
                if let number = Self.transportWideNumber(of: packet) {
                    recorder.record(sequenceNumber: number, arrivalUs: nowUs, ssrc: 0xBBBB, bytes: packet.count)
                }
            }
            if let due = recorder.feedbackDueUs(), due <= nowUs {
                for _ in 0..<4 where recorder.hasUnreportedPackets {
                    let length = feedback.withUnsafeMutableBytes { recorder.writeFeedback(senderSSRC: 0xFEED, into: $0, at: 0, nowUs: nowUs) }
                    guard let length else { break }
                    harness.receive(Array(feedback[0..<length]), on: 2, from: Self.subscriber)
                }
            }
            nowUs += 1000
        }
        harness.core.publishReport()
        let estimate = try #require(harness.reports.read().transports[2]?.bandwidthEstimate)
        return Run(estimate: estimate, delivered: delivered, numbersInOrder: numbersInOrder)
    }

    @Test func onAnOpenLinkTheEstimateGrowsFromItsStartWithoutLoss() throws {
        let run = try Self.run(rateBps: 1_500_000, impairment: LinkImpairment(delayMs: 20), seconds: 8)
        #expect(run.numbersInOrder)
        #expect(run.delivered > 1000)
        #expect(run.estimate.source == .transportWideFeedback)
        #expect(run.estimate.feedbacks > 50)
        #expect(run.estimate.lossFraction == 0)
        #expect(run.estimate.delaySignal == "normal")
        // It starts at 300 kbit/s and, with nothing queueing, only grows.
        #expect(run.estimate.estimateBps > 390_000)
        // What arrived is the stream's rate.
        #expect(abs(Double(run.estimate.acknowledgedBps ?? 0) - 1_500_000) < 300_000)
        // About 20 ms each way on the link, nothing on the way back.
        #expect(run.estimate.roundTripTimeMs >= 20 && run.estimate.roundTripTimeMs < 150)
    }

    @Test func aStreamFarAboveACapLosesMostOfItsPacketsAndTheEstimateFallsBelowTheCap() throws {
        let cap = 200_000
        let run = try Self.run(rateBps: 1_500_000, impairment: LinkImpairment(rateBitsPerSecond: cap, delayMs: 20), seconds: 8)
        #expect(run.numbersInOrder)
        #expect(run.estimate.source == .transportWideFeedback)
        #expect(run.estimate.estimateBps <= cap)
        #expect(run.estimate.lossFraction > 0.5)
        #expect(abs(Double(run.estimate.acknowledgedBps ?? 0) - Double(cap)) < Double(cap) / 4)
    }

    @Test(arguments: [200_000, 250_000])
    func aStreamThatFollowsTheEstimateKeepsItNearTheCap(cap: Int) throws {
        let run = try Self.run(
            rateBps: 1_500_000, followsEstimate: true, impairment: LinkImpairment(rateBitsPerSecond: cap, delayMs: 20), seconds: 10)
        #expect(run.estimate.source == .transportWideFeedback)
        #expect(run.estimate.estimateBps >= cap * 3 / 5 && run.estimate.estimateBps <= cap * 5 / 4)
        #expect(run.estimate.lossFraction < 0.1)
    }

    /// The packets a subscriber with an RTX stream got in the 40 ms after one 1 000-byte keyframe
    /// packet (the first probe cluster, three times the 300 kbit/s start, takes its 15 ms): the
    /// media packets and the probes, in order.
    static func firstProbe(configuration: MediaPlaneConfiguration = MediaPlaneConfiguration()) -> (harness: CoreHarness, packets: [[UInt8]]) {
        let harness = Self.harness(rtx: true, configuration: configuration)
        harness.receive(
            ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: 1, timestamp: 9000, payload: ScriptedPacket.vp8Payload(keyframe: true, size: 1000)), on: 1,
            from: Self.publisher)
        for _ in 0..<40 { harness.advance(ms: 1) }
        return (harness, harness.sent(on: 2).filter { !(192...223).contains($0[1]) })
    }

    @Test func probesResendTheLatestPacketOnTheRTXStreamNumberedWithTheMedia() throws {
        let (harness, packets) = Self.firstProbe()
        let media = try #require(packets.first.flatMap(ScriptedPacket.header(of:)))
        #expect(media.ssrc == 0xBBBB)
        let probes = packets.dropFirst()
        // At least the cluster's 5 packets; its 900 kbit/s for 15 ms is under two of these.
        #expect(probes.count >= 5)
        for probe in probes {
            let header = try #require(ScriptedPacket.header(of: probe))
            #expect(header.ssrc == Self.rtxSSRC && header.payloadType == 97)
            // RFC 4588: the original sequence number, then the original payload.
            let original = UInt16(probe[header.payloadOffset]) << 8 | UInt16(probe[header.payloadOffset + 1])
            #expect(original == media.sequenceNumber)
            #expect(Array(probe[(header.payloadOffset + 2)...]) == Array(packets[0][media.payloadOffset...]))
        }
        // One transport-wide sequence for media and probes alike.
        #expect(packets.map(Self.transportWideNumber(of:)) == (0..<packets.count).map { UInt16($0) })
        let rtxNumbers = probes.compactMap { ScriptedPacket.header(of: $0)?.sequenceNumber }
        #expect(zip(rtxNumbers, rtxNumbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        #expect(harness.core.counters.probeClusters == 1)
        #expect(harness.core.counters.probePackets == UInt64(probes.count))
    }

    @Test func withoutAStoredPacketProbesArePaddingOnly() throws {
        var configuration = MediaPlaneConfiguration()
        // Nothing stored is young enough to send again.
        configuration.retransmissionMaximumAgeMs = 0
        let (_, packets) = Self.firstProbe(configuration: configuration)
        let probes = packets.dropFirst()
        // The two start clusters, 900 kbit/s and then 1.8 Mbit/s for 15 ms each, in 244-byte
        // packets: 7 and 14.
        #expect(probes.count == 21)
        for probe in probes {
            let header = try #require(ScriptedPacket.header(of: probe))
            #expect(header.ssrc == Self.rtxSSRC && header.payloadType == 97 && probe[0] & 0x20 != 0)
            // Nothing but padding after the extension block; the last byte counts it.
            #expect(header.payloadLength == 0)
            #expect(probe.count == MediaCore.probePacketLength && Int(probe[probe.count - 1]) == MediaCore.probePaddingBytes)
        }
        #expect(packets.map(Self.transportWideNumber(of:)) == (0..<packets.count).map { UInt16($0) })
    }

    @Test func withoutAnRTXStreamNothingProbes() throws {
        let harness = Self.harness()
        harness.receive(
            ScriptedPacket.rtp(ssrc: 0xAAAA, sequenceNumber: 1, timestamp: 9000, payload: ScriptedPacket.vp8Payload(keyframe: true)), on: 1,
            from: Self.publisher)
        for _ in 0..<40 { harness.advance(ms: 1) }
        #expect(harness.rtpSent(on: 2).map(\.ssrc) == [0xBBBB])
        #expect(harness.core.counters.probeClusters == 0)
    }

    @Test func withProbesTheEstimateFindsAnOpenLinksHeadroomFast() throws {
        var atTwoSeconds = 0.0
        let run = try Self.run(rateBps: 1_500_000, probes: true, impairment: LinkImpairment(delayMs: 20), seconds: 5) { time, estimate in
            if time == 2_000_000 { atTwoSeconds = estimate }
        }
        #expect(run.numbersInOrder)
        #expect(run.estimate.lossFraction == 0)
        // Without probes it grows 8 % a second (above: 558 kbit/s after 8 s).
        #expect(atTwoSeconds > 1_000_000)
        #expect(run.estimate.estimateBps > 1_200_000)
    }

    @Test(arguments: [300_000, 1_000_000, 3_000_000])
    func withProbesAStreamThatFollowsTheEstimateTracksTheCap(cap: Int) throws {
        var samples: [(Int64, Double)] = []
        let run = try Self.run(
            rateBps: 5_000_000, followsEstimate: true, probes: true, impairment: LinkImpairment(rateBitsPerSecond: cap, delayMs: 50), seconds: 12
        ) { samples.append(($0, $1)) }
        // From 5 s on, within a quarter of the cap, and never far above it.
        let settled = samples.filter { $0.0 >= 5_000_000 }.map(\.1)
        #expect(settled.allSatisfy { $0 >= Double(cap) * 0.75 && $0 <= Double(cap) * 1.25 }, "\(settled.map { Int($0) })")
        #expect(run.estimate.lossFraction < 0.02)
    }

    @Test func afterACapLiftsProbesFindTheHeadroomAgain() throws {
        var samples: [(Int64, Double)] = []
        _ = try Self.run(
            rateBps: 3_000_000, followsEstimate: true, probes: true, impairment: LinkImpairment(rateBitsPerSecond: 500_000, delayMs: 50), liftAtSecond: 8,
            seconds: 20
        ) { samples.append(($0, $1)) }
        let capped = samples.first { $0.0 == 7_900_000 }?.1 ?? 0
        #expect(capped <= 625_000)
        // Three quarters of the 3 Mbit/s the stream could use, within 10 s of the lift.
        let recovered = samples.first { $0.0 > 8_000_000 && $0.1 >= 2_250_000 }
        #expect(recovered != nil && recovered!.0 <= 18_000_000, "\(samples.filter { $0.0 >= 8_000_000 }.map { Int($0.1) })")
    }
}
