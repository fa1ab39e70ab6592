import Testing

@testable import MediaPlane

/// Forward runs change only the interleaving between subscribers. Two cores, seeded alike, get
/// the same random traffic: one handles each batch as the shell does (runs, early sends), the
/// other packet by packet. Every subscriber stream, and the feedback to the publisher, must come
/// out of both byte for byte the same.
@Suite struct MediaCoreForwardRunEquivalenceTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let big: UInt32 = 0xB16, small: UInt32 = 0x5A11, audio: UInt32 = 0xA0D1
    static let subscribers = 5

    /// A publisher (transport 1) with two video layers (10, 11) and audio (12); subscriber
    /// transports 2...6, each with a video sink (20...) and an audio sink (40...).
    static func harness() -> CoreHarness {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: publisher)
        h.addVideoSource(10, transport: 1, ssrc: big)
        h.addVideoSource(11, transport: 1, ssrc: small)
        h.addAudioSource(12, transport: 1, ssrc: audio)
        for index in 0..<subscribers {
            h.addPlainTransport(2 + index, remote: PeerEndpoint(ip: 0x7F00_0001, port: UInt16(6000 + index)))
            h.addSink(UInt32(20 + index), transport: 2 + index, outputSSRC: 0x2000 + UInt32(index))
            h.bind(sink: UInt32(20 + index), source: index % 2 == 0 ? 10 : 11)
            h.addSink(UInt32(40 + index), transport: 2 + index, outputSSRC: 0x4000 + UInt32(index), isVideo: false)
            h.bind(sink: UInt32(40 + index), source: 12)
        }
        return h
    }

    /// SplitMix64: the same script for both cores.
    struct Script {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// One datagram from the publisher: mostly in-order video of either layer and audio, some
    /// keyframes, reordered or repeated numbers, sender reports and garbage.
    static func datagram(_ script: inout Script, sequences: inout [UInt32: UInt16]) -> [UInt8] {
        let roll = script.next(100)
        if roll < 3 { return (0..<(1 + script.next(80))).map { _ in UInt8(truncatingIfNeeded: script.next(256)) } }
        if roll < 6 { return ScriptedPacket.senderReport(ssrc: script.next(2) == 0 ? big : audio, rtpTimestamp: UInt32(script.next(1 << 30))) }
        let ssrc = roll < 50 ? big : roll < 80 ? small : audio
        var sequence = sequences[ssrc, default: 100] &+ 1
        switch script.next(20) {
        case 0: sequence &-= UInt16(1 + script.next(4))  // late or repeated
        case 1: sequence &+= UInt16(1 + script.next(5))  // a gap: the relay NACKs it
        default: break
        }
        sequences[ssrc] = max(sequences[ssrc, default: 100], sequence)
        if ssrc == audio { return ScriptedPacket.audio(ssrc: ssrc, sequenceNumber: sequence, timestamp: UInt32(sequence) &* 960) }
        return ScriptedPacket.video(ssrc: ssrc, sequenceNumber: sequence, timestamp: UInt32(sequence / 4) &* 3000, keyframe: script.next(12) == 0)
    }

    /// What one core sent, by transport and SSRC (RTP) or transport (RTCP), in order.
    static func streams(_ h: CoreHarness) -> [String: [[UInt8]]] {
        var streams: [String: [[UInt8]]] = [:]
        for datagram in h.output.datagrams {
            let bytes = datagram.bytes
            let isRTCP = bytes.count > 1 && (192...223).contains(bytes[1])
            let key =
                isRTCP || bytes.count < 12
                ? "\(datagram.transportId) rtcp"
                : "\(datagram.transportId) \(bytes[8...11].reduce(0) { $0 << 8 | UInt32($1) })"
            streams[key, default: []].append(bytes)
        }
        return streams
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomTrafficLeavesEverySubscriberTheSameStreamWithRunsAsWithout(seed: UInt64) {
        let runs = Self.harness()
        let packetwise = Self.harness()
        var script = Script(state: seed)
        var sequences: [UInt32: UInt16] = [:]
        for _ in 0..<300 {
            // Now and then, between batches, what the control plane does: a layer switch.
            if script.next(10) == 0 {
                let command = MediaCommand.switchSource(sink: UInt32(20 + script.next(Self.subscribers)), source: 10 + UInt32(script.next(2)))
                runs.core.apply(command)
                packetwise.core.apply(command)
            }
            let packets = (0..<(1 + script.next(40))).map { _ in Self.datagram(&script, sequences: &sequences) }
            let batch = MediaCoreForwardRunTests.receiveBatch(packets, runs)
            runs.core.flushAll()
            batch.deallocate()
            for packet in packets { packetwise.receive(packet, on: 1, from: Self.publisher) }
        }
        let withRuns = Self.streams(runs)
        let withoutRuns = Self.streams(packetwise)
        #expect(withRuns.keys.sorted() == withoutRuns.keys.sorted())
        for key in withoutRuns.keys.sorted() {
            let with = withRuns[key] ?? []
            let without = withoutRuns[key] ?? []
            // Compared by index, not printed whole: a failure names the first datagram that differs.
            let firstDifference = (0..<max(with.count, without.count)).first { $0 >= with.count || $0 >= without.count || with[$0] != without[$0] }
            #expect(firstDifference == nil, "stream \(key): \(with.count) datagrams with runs, \(without.count) without")
        }
        #expect(runs.core.counters.packetsOut == packetwise.core.counters.packetsOut)
        #expect(runs.core.counters.packetsOut > 1000, "enough forwarded to mean something")
        #expect(runs.core.counters.sendBatches < packetwise.core.counters.sendBatches, "runs batch where packet by packet sends one at a time")
    }
}
