import Benchmark
import HotPathWorkloads
import RTPWire
import SecureTransport
import StreamCore

/// The relay's per-packet work, one piece at a time, with allocations counted (the target is zero
/// per packet). The `core:` benchmarks run the relay's own media core (`MediaCore.handleDatagram`)
/// on one received packet: checks, statistics, retransmission buffer, keyframe detection, then for
/// each subscriber copy into a send slot, rewrite, SRTP-protect and queue; the `sendmmsg` call
/// itself is measured by the traffic tool, not here.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(2))

    let packetLength = 1200
    let packet = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 16)
    packet.initializeMemory(as: UInt8.self, repeating: 0xA5)
    _ = RTPHeaderWriter.write(marker: false, payloadType: 96, sequenceNumber: 1000, timestamp: 90000, ssrc: 0x1234_5678, into: packet)
    let packetView = UnsafeRawBufferPointer(start: packet.baseAddress, count: packetLength)
    let nackScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)

    Benchmark("RTP parse") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(RTPHeader.parse(packetView))
        }
    }

    Benchmark("VP8 descriptor rewrite") { benchmark in
        // X, I (15-bit picture ID) and L (TL0PICIDX): what browsers send with temporal layers.
        let descriptor = UnsafeMutableRawBufferPointer.allocate(byteCount: 1188, alignment: 16)
        descriptor.initializeMemory(as: UInt8.self, repeating: 0)
        descriptor[0] = 0x90
        descriptor[1] = 0xC0
        var rewriter = VP8DescriptorRewriter()
        var picture: UInt16 = 0
        for _ in benchmark.scaledIterations {
            picture &+= 1
            descriptor[2] = 0x80 | UInt8((picture >> 8) & 0x7F)
            descriptor[3] = UInt8(truncatingIfNeeded: picture)
            rewriter.rewrite(generation: 1, payload: descriptor)
        }
        blackHole(descriptor[3])
        descriptor.deallocate()
    }

    Benchmark("RTP header rewrite") { benchmark in
        var rewriter = TrackRewriter(outputSSRC: 0xCAFE_BABE, initialSequenceNumber: 7, initialTimestamp: 1, clockRate: 90000)
        var sequence: UInt16 = 1000
        for _ in benchmark.scaledIterations {
            sequence &+= 1
            if let numbers = rewriter.rewrite(sourceGeneration: 1, sequenceNumber: sequence, timestamp: 90000, nowMs: 1) {
                RTPHeaderWriter.setSSRC(0xCAFE_BABE, in: packet.baseAddress!)
                RTPHeaderWriter.setSequenceNumber(numbers.sequenceNumber, in: packet.baseAddress!)
                RTPHeaderWriter.setTimestamp(numbers.timestamp, in: packet.baseAddress!)
            }
        }
    }

    Benchmark("STUN check HMAC-SHA-1") { benchmark in
        // What answering one ICE connectivity check costs in MAC work: verify the request's
        // MESSAGE-INTEGRITY over about 100 bytes under a 24-character password.
        let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 24, alignment: 8)
        key.initializeMemory(as: UInt8.self, repeating: 0x61)
        let message = UnsafeRawBufferPointer(rebasing: packetView[0..<100])
        let code = UnsafeMutableRawBufferPointer.allocate(byteCount: HMACSHA1.codeLength, alignment: 8)
        HMACSHA1.authenticate(message: message, key: UnsafeRawBufferPointer(key), into: code)
        for _ in benchmark.scaledIterations {
            blackHole(HMACSHA1.isValid(UnsafeRawBufferPointer(code), message: message, key: UnsafeRawBufferPointer(key)))
        }
        code.deallocate()
        key.deallocate()
    }

    for profile in SRTPProfile.allCases {
        Benchmark("core: 1 subscriber, \(profile.rawValue)") { benchmark, fanOut in
            runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
        } setup: {
            CoreFanOut(subscribers: 1, profile: profile)
        }
    }

    // A received packet, then the subscriber's NACK for it answered: against the benchmark above,
    // what answering one NACKed packet costs. The budget is the stream's own size, so that every
    // NACK is answered and none refused.
    Benchmark("core: 1 GCM subscriber, each packet NACKed and resent") { benchmark, fanOut in
        let sentBefore = fanOut.retransmissionsSent
        runCoreNackEveryPacket(fanOut, iterations: benchmark.scaledIterations, scratch: nackScratch)
        precondition(fanOut.retransmissionsSent - sentBefore == UInt64(benchmark.scaledIterations.count), "a NACK was not answered")
    } setup: {
        CoreFanOut(subscribers: 1, profile: .aeadAES128GCM, retransmissionBudgetPercent: 100)
    }

    // Transport-wide feedback to the publisher: each packet carries a transport-wide sequence
    // number, the clock moves 1 ms per packet and the timers run after every batch of 32, as the
    // shell runs them. Against the same run without recording, what recording every arrival and
    // sending the feedback on the timer (amortised per received packet) cost.
    for subscribers in [1, 16] {
        for records in [false, true] {
            Benchmark("core: fan-out to \(subscribers) (GCM), timers, \(records ? "transport-wide feedback" : "no feedback")") { benchmark, fanOut in
                let before = fanOut.transportFeedbackSent
                runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
                precondition(records == (fanOut.transportFeedbackSent > before) || benchmark.scaledIterations.count < 100, "feedback was not measured")
            } setup: {
                CoreFanOut(
                    subscribers: subscribers, profile: .aeadAES128GCM, transportSequence: true, recordsArrivals: records, microsecondsPerPacket: 1000)
            }
        }
    }

    // WebRTC subscribers (their header extensions rewritten), with and without a transport-wide
    // number stamped on each packet and logged for the subscriber's estimate: what stamping
    // costs per egress packet at fan-out 16.
    for stamps in [false, true] {
        Benchmark("core: fan-out to 16 WebRTC subscribers (GCM), \(stamps ? "transport-wide numbers stamped" : "no numbers")") { benchmark, fanOut in
            runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
        } setup: {
            CoreFanOut(subscribers: 16, profile: .aeadAES128GCM, transportSequence: true, webRTCSubscribers: true, stampsTransportWide: stamps)
        }
    }

    // The send-side estimate of a subscriber transport: logging each packet sent (the per-packet
    // part), and one transport-wide feedback reporting 128 of them (the per-feedback part, which
    // the data plane runs about every 100 ms: divide by 128 for a per-packet share).
    Benchmark("BWE: log one packet sent to a subscriber") { benchmark in
        let estimator = SendSideBandwidthEstimator()
        var nowUs: Int64 = 0
        for _ in benchmark.scaledIterations {
            nowUs += 100
            blackHole(estimator.recordSent(bytes: 1200, sendUs: nowUs))
        }
    }

    Benchmark("BWE: 128 packets logged and one feedback reporting them") { (benchmark, feedbacks: [[UInt8]]) in
        let estimator = SendSideBandwidthEstimator()
        var sendUs: Int64 = 0
        var index = 0
        for _ in benchmark.scaledIterations {
            for _ in 0..<128 {
                sendUs += 1_000
                _ = estimator.recordSent(bytes: 1200, sendUs: sendUs)
            }
            feedbacks[index].withUnsafeBytes { buffer in
                var packets = RTCPPacketIterator(buffer)
                if let view = packets.next(), let common = RTCPFeedback(view: view, in: buffer),
                    let feedback = RTCPTransportFeedback(feedback: common, in: buffer)
                {
                    estimator.onTransportFeedback(feedback, in: buffer, nowUs: sendUs + 60_000)
                }
            }
            index = (index + 1) % feedbacks.count
        }
        blackHole(estimator.estimateBps)
    } setup: {
        // 512 feedbacks of 128 packets cover the 16-bit sequence space once; every tenth packet lost.
        var feedbacks: [[UInt8]] = []
        for block in 0..<512 {
            let recorder = TransportFeedbackRecorder()
            for offset in 0..<128 where offset % 10 != 9 {
                let sequence = block * 128 + offset
                recorder.record(sequenceNumber: UInt16(sequence), arrivalUs: 50_000 + Int64(sequence) * 1_000, ssrc: 1, bytes: 1200)
            }
            var bytes = [UInt8](repeating: 0, count: 1500)
            let length = bytes.withUnsafeMutableBytes { recorder.writeFeedback(senderSSRC: 1, into: $0, at: 0, nowUs: 0) } ?? 0
            feedbacks.append(Array(bytes[0..<length]))
        }
        return feedbacks
    }

    for subscribers in [1, 8, 64] {
        Benchmark("core: fan-out to \(subscribers) (GCM)") { benchmark, fanOut in
            runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
        } setup: {
            CoreFanOut(subscribers: subscribers, profile: .aeadAES128GCM)
        }
    }

    for crosses in [false, true] {
        Benchmark(crosses ? "shard hop: to a remote source" : "shard hop: baseline, same shard") { benchmark, hop in
            runShardHop(hop, iterations: benchmark.scaledIterations)
        } setup: {
            ShardHop(crosses: crosses)
        }
    }

    // The same 8 egress packets per received packet, with the audience on the publisher's shard or
    // half of it on a second shard (both cores on this one thread): the CPU spreading costs.
    for shards in [1, 2] {
        Benchmark("shards: 8 GCM subscribers on \(shards) shard\(shards == 1 ? "" : "s")") { benchmark, split in
            runShardSplit(split, iterations: benchmark.scaledIterations)
        } setup: {
            ShardSplit(subscribers: 8, shards: shards, profile: .aeadAES128GCM)
        }
    }

    Benchmark("core: fan-out to 8 (plain RTP)") { benchmark, fanOut in
        runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
    } setup: {
        CoreFanOut(subscribers: 8, profile: nil)
    }

    // With GSO padding: every other packet 20 bytes shorter, padded to the run's size for every
    // subscriber (a whole copy into the slot, then the padding).
    for profile in [SRTPProfile.aeadAES128GCM, nil] {
        Benchmark("core: fan-out to 8 (\(profile == nil ? "plain RTP" : "GCM"), GSO padding)") { benchmark, fanOut in
            runCoreFanOut(fanOut, iterations: benchmark.scaledIterations)
            precondition(fanOut.paddedPackets > 0, "the padding path was not measured")
        } setup: {
            CoreFanOut(subscribers: 8, profile: profile, segmentPadding: 255, shorterEveryOther: 20)
        }
    }
}
