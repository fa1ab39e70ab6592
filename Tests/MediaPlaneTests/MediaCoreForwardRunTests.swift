import RTPWire
import Testing

@testable import MediaPlane

/// Forward runs: within a receive batch, the packets of one source go to its subscribers one
/// subscriber at a time. Every subscriber still gets every packet in order; a long run leaves
/// subscriber by subscriber at once, a short one at the end of the batch; nothing that changes a
/// sink's binding lets a packet reach a sink it was not meant for.
@Suite struct MediaCoreForwardRunTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let video: UInt32 = 0x0000_7777
    static let audio: UInt32 = 0x0000_A0D1

    /// A publisher on transport 1 with a video source (10) and an audio source (11), and
    /// `subscribers` plain subscribers on transports 2... with a video sink (20...) and an audio
    /// sink (40...) each, every video sink past its first keyframe.
    static func harness(subscribers: Int) -> CoreHarness {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: publisher)
        h.addVideoSource(10, transport: 1, ssrc: video)
        h.addAudioSource(11, transport: 1, ssrc: audio)
        for index in 0..<subscribers {
            h.addPlainTransport(2 + index, remote: PeerEndpoint(ip: 0x7F00_0001, port: UInt16(6000 + index)))
            h.addSink(UInt32(20 + index), transport: 2 + index, outputSSRC: 0x2000 + UInt32(index))
            h.bind(sink: UInt32(20 + index), source: 10)
            h.addSink(UInt32(40 + index), transport: 2 + index, outputSSRC: 0x4000 + UInt32(index), isVideo: false)
            h.bind(sink: UInt32(40 + index), source: 11)
        }
        h.receive(ScriptedPacket.video(ssrc: video, sequenceNumber: 99, timestamp: 0, keyframe: true), on: 1, from: publisher)
        return h
    }

    /// Hands `packets` to the core from one buffer as the shell hands a receive batch over,
    /// ending the batch as the shell does; sends nothing else. The caller deallocates the buffer.
    static func receiveBatch(_ packets: [[UInt8]], _ h: CoreHarness) -> UnsafeMutableRawBufferPointer {
        let batch = UnsafeMutableRawBufferPointer.allocate(byteCount: packets.count * 2048, alignment: 16)
        h.core.handlesReceiveBatch = true
        for (index, packet) in packets.enumerated() {
            let buffer = batch.baseAddress! + index * 2048
            packet.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            h.core.handleDatagram(on: h.core.transports[1]!, buffer: buffer, length: packet.count, from: publisher)
        }
        h.core.forwardRun()
        h.core.handlesReceiveBatch = false
        return batch
    }

    static func videoPackets(from sequence: UInt16, count: Int) -> [[UInt8]] {
        (0..<count).map { ScriptedPacket.video(ssrc: video, sequenceNumber: sequence + UInt16($0), timestamp: 3000, keyframe: false) }
    }

    @Test func aLongRunLeavesSubscriberBySubscriberBeforeTheBatchEnds() {
        let h = Self.harness(subscribers: 3)
        let mark = h.mark
        let batches = h.output.batches
        let packets = Self.videoPackets(from: 100, count: MediaCore.forwardRunEarlySendLength + 2)
        let batch = Self.receiveBatch(packets, h)
        defer { batch.deallocate() }
        // Sent before the shell's flush: one call per subscriber, each with its whole part.
        let sent = h.output.datagrams[mark...]
        #expect(sent.count == 3 * packets.count)
        #expect(h.output.batches - batches == 3)
        #expect(sent.map(\.transportId) == [2, 3, 4].flatMap { Array(repeating: $0, count: packets.count) })
        for transport in 2...4 {
            let headers = h.rtpSent(on: transport, since: mark)
            #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == (0..<UInt16(packets.count)).map { $0 }, "in order")
            #expect(headers.allSatisfy { $0.ssrc == 0x2000 + UInt32(transport - 2) })
        }
        h.core.flushAll()
        #expect(h.mark - mark == 3 * packets.count, "nothing left for the flush")
    }

    @Test func aShortRunWaitsForTheEndOfTheBatchAndLeavesInOneCallPerSubscriber() {
        let h = Self.harness(subscribers: 3)
        let mark = h.mark
        let batches = h.output.batches
        let packets = Self.videoPackets(from: 100, count: MediaCore.forwardRunEarlySendLength - 1)
        let batch = Self.receiveBatch(packets, h)
        defer { batch.deallocate() }
        #expect(h.mark == mark, "queued, not sent")
        h.core.flushAll()
        #expect(h.mark - mark == 3 * packets.count)
        #expect(h.output.batches - batches == 3)
        for transport in 2...4 {
            let headers = h.rtpSent(on: transport, since: mark)
            #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == (0..<UInt16(packets.count)).map { $0 }, "in order")
        }
    }

    @Test func packetsOfAnotherSourceEndTheRunAndEverySubscriberGetsBothInOrder() {
        let h = Self.harness(subscribers: 2)
        let mark = h.mark
        var packets = Self.videoPackets(from: 100, count: 5)
        packets.insert(ScriptedPacket.audio(ssrc: Self.audio, sequenceNumber: 7, timestamp: 960), at: 2)
        packets += Self.videoPackets(from: 105, count: 5)
        packets.append(ScriptedPacket.audio(ssrc: Self.audio, sequenceNumber: 8, timestamp: 1920))
        let batch = Self.receiveBatch(packets, h)
        defer { batch.deallocate() }
        h.core.flushAll()
        for transport in 2...3 {
            let headers = h.rtpSent(on: transport, since: mark)
            let video = headers.filter { $0.ssrc == 0x2000 + UInt32(transport - 2) }
            let audio = headers.filter { $0.ssrc == 0x4000 + UInt32(transport - 2) }
            #expect(video.count == 10 && audio.count == 2)
            #expect(video.map { $0.sequenceNumber &- video[0].sequenceNumber } == (0..<UInt16(10)).map { $0 }, "video in order")
            #expect(audio.count == 2 && audio[1].sequenceNumber == audio[0].sequenceNumber &+ 1, "audio in order")
        }
        #expect(h.drops(.staleSequence) == 0)
    }

    /// A sink waiting to switch to a layer moves at that layer's keyframe: the packets of the
    /// run before the keyframe go to the layer's sinks of before the switch, not to it.
    @Test func aLayerSwitchInsideARunTakesOnlyTheKeyframeAndWhatFollows() {
        let h = CoreHarness()
        let big: UInt32 = 0xB16
        let small: UInt32 = 0x5A11
        h.addPlainTransport(1, remote: Self.publisher)
        h.addVideoSource(10, transport: 1, ssrc: big)
        h.addVideoSource(11, transport: 1, ssrc: small)
        for index in 0..<3 {
            h.addPlainTransport(2 + index, remote: PeerEndpoint(ip: 0x7F00_0001, port: UInt16(6000 + index)))
            h.addSink(UInt32(20 + index), transport: 2 + index, outputSSRC: 0x2000 + UInt32(index))
        }
        h.bind(sink: 20, source: 10)
        h.bind(sink: 21, source: 11)
        h.bind(sink: 22, source: 11)
        h.receive(ScriptedPacket.video(ssrc: big, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        h.receive(ScriptedPacket.video(ssrc: small, sequenceNumber: 1, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        h.core.apply(.switchSource(sink: 20, source: 11))
        h.core.flushAll()
        let mark = h.mark

        var packets: [[UInt8]] = []
        for index in 0..<6 {
            let frame = UInt32(1 + index / 3)
            packets.append(ScriptedPacket.video(ssrc: small, sequenceNumber: 2 + UInt16(index), timestamp: 3000 * frame, keyframe: index == 3))
        }
        let batch = Self.receiveBatch(packets, h)
        defer { batch.deallocate() }
        h.core.flushAll()
        #expect(h.core.sinks[20]?.source?.ssrc == small)
        #expect(h.rtpSent(on: 3, since: mark).count == 6)
        #expect(h.rtpSent(on: 4, since: mark).count == 6)
        let switched = h.sent(on: 2, since: mark)
        #expect(switched.count == 3, "the keyframe and the two packets after it")
        #expect(switched.first.map { Array($0[12...]) } == Array(packets[3][12...]), "starting at the keyframe")
        #expect(h.drops(.staleSequence) == 0)
    }
}
