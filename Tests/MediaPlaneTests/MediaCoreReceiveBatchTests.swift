import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// Subscribers while the core handles the shell's receive batch. A plain subscriber's datagram
/// leaves with its head (the rewritten header and VP8 descriptor) from the send slot and the rest
/// of the packet from the batch, read when it is sent; an SRTP subscriber's packet is sealed
/// from the batch into the slot at once. Every subscriber gets every packet whole.
@Suite(.enabled(if: pkr_udp_segmentation_supported() != 0, "the kernel does not support UDP_SEGMENT"))
struct MediaCoreReceiveBatchTests {
    @Test(arguments: [false, true])
    func plainSubscribersSendTheRestOfEachPacketFromTheReceiveBatch(segmented: Bool) throws {
        let core = MediaCoreSegmentationTests.coreWithPublisher(segmented: segmented)
        let publisher = MediaCoreSegmentationTests.publisher
        var receivers: [SegmentedSendTests.Receiver] = []
        var sockets: [Int32] = []
        defer { for fd in sockets + receivers.map(\.fd) { _ = pkr_close(fd) } }
        for index in 0..<3 {
            let receiver = try SegmentedSendTests.Receiver()
            let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
            receivers.append(receiver)
            sockets.append(fd)
            let id = 2 + index
            core.apply(.addTransport(id: id, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: nil, outbound: nil))
            core.apply(.connectTransport(id: id, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
            core.apply(
                .addSink(MediaSinkSpec(id: UInt32(20 + index), transportId: id, outputSSRC: 0xBBBB_0000 + UInt32(index), isVideo: true, clockRate: 90_000)))
            core.apply(.bind(sink: UInt32(20 + index), source: 10))
        }
        core.flushAll()
        let before = core.counters

        // A keyframe of seven packets in one buffer, as a receive batch holds them (a run too
        // short to leave before the flush); the last one is too short to be worth splitting
        // and is copied whole.
        let sizes = [1100, 1100, 1100, 1100, 1100, 400, 100]
        #expect(sizes.count < MediaCore.forwardRunEarlySendLength)
        var packets: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let payload = ScriptedPacket.vp8Payload(keyframe: index == 0, size: size)
            packets.append(
                ScriptedPacket.rtp(
                    ssrc: 0xAAAA_0001, sequenceNumber: 500 + UInt16(index), timestamp: 90_000, marker: index == sizes.count - 1, payload: payload))
        }
        let batch = Self.handleAsOneBatch(packets, core: core, from: publisher)
        defer { batch.deallocate() }
        #expect(core.queuedFromReceiveBatch)
        // The rest of a split packet is read from the batch when the datagram is sent, not
        // before: what lies there then is what leaves. A packet copied whole is not affected.
        for (index, packet) in packets.enumerated() {
            batch[index * 2048 + packet.count - 1] = 0xEE
            if packet.count - 28 >= MediaCore.minimumBorrowedBytes { packets[index][packet.count - 1] = 0xEE }
        }
        #expect(packets.map { $0.last == 0xEE } == [true, true, true, true, true, true, false])
        core.flushAll()
        #expect(!core.queuedFromReceiveBatch)

        #expect(core.counters.packetsOut - before.packetsOut == 21)
        #expect(core.counters.bytesOut - before.bytesOut == UInt64(3 * packets.reduce(0) { $0 + $1.count }))
        #expect(core.counters.sendMessages - before.sendMessages == (segmented ? 3 * 2 : 21), "runs [1112 x5, 412] [112]")
        for (index, receiver) in receivers.enumerated() {
            let datagrams = receiver.drain(expecting: 7)
            #expect(datagrams.count == 7)
            let headers = datagrams.compactMap(ScriptedPacket.header(of:))
            #expect(headers.allSatisfy { $0.ssrc == 0xBBBB_0000 + UInt32(index) })
            #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == Array(0..<7), "in order")
            #expect(
                zip(datagrams, packets).allSatisfy { $0.0.count == $0.1.count && Array($0.0[12...]) == Array($0.1[12...]) }, "payloads as they lay when sent")
        }
    }

    /// Hands `packets` to the core from one buffer, 2 KiB apart, as a receive batch holds them
    /// (publisher transport 1), ending the batch as the shell does; the caller deallocates it.
    static func handleAsOneBatch(_ packets: [[UInt8]], core: MediaCore, from publisher: PeerEndpoint) -> UnsafeMutableRawBufferPointer {
        let batch = UnsafeMutableRawBufferPointer.allocate(byteCount: packets.count * 2048, alignment: 16)
        core.handlesReceiveBatch = true
        for (index, packet) in packets.enumerated() {
            let buffer = batch.baseAddress! + index * 2048
            packet.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            core.handleDatagram(on: core.transports[1]!, buffer: buffer, length: packet.count, from: publisher)
        }
        core.forwardRun()
        core.handlesReceiveBatch = false
        return batch
    }

    /// `packet` with a one-byte-form header extension of one word (abs-send-time's shape).
    static func withExtension(_ packet: [UInt8]) -> [UInt8] {
        var bytes = Array(packet.prefix(12)) + [0xBE, 0xDE, 0x00, 0x01, 0x32, 0x01, 0x02, 0x03] + packet.dropFirst(12)
        bytes[0] |= 0x10
        return bytes
    }

    /// One fragment of an H.264 IDR slice (RFC 6184 FU-A) of `size` bytes.
    static func h264Payload(first: Bool, last: Bool, size: Int) -> [UInt8] {
        let fragmentHeader: UInt8 = (first ? 0x80 : 0) | (last ? 0x40 : 0) | 5
        return [0x7C, fragmentHeader] + (0..<max(0, size - 2)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    }

    /// VP8 sinks rewrite picture IDs; every other codec takes the plain copy path, which seals
    /// from the batch the same way.
    @Test(arguments: [SRTPProfile.aeadAES128GCM, .aesCM128HMACSHA1_80], [(false, "VP8"), (true, "VP8"), (false, "H264"), (true, "H264")])
    func srtpSubscribersSealEachPacketFromTheReceiveBatch(profile: SRTPProfile, path: (rewritesExtensions: Bool, codec: String)) throws {
        let rewritesExtensions = path.rewritesExtensions
        let core = MediaCoreSegmentationTests.coreWithPublisher(segmented: false, codec: path.codec)
        let publisher = MediaCoreSegmentationTests.publisher
        var receivers: [SegmentedSendTests.Receiver] = []
        var decryptors: [SRTPSession] = []
        var sockets: [Int32] = []
        defer { for fd in sockets + receivers.map(\.fd) { _ = pkr_close(fd) } }
        for index in 0..<2 {
            let receiver = try SegmentedSendTests.Receiver()
            let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
            receivers.append(receiver)
            sockets.append(fd)
            let keys = (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ index) }
            decryptors.append(try SRTPSession(profile: profile, keyingMaterial: keys, direction: .receiver))
            let outbound = try SRTPSession(profile: profile, keyingMaterial: keys, direction: .sender)
            let id = 2 + index
            core.apply(.addTransport(id: id, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: profile, outbound: SRTPSessionHandoff(outbound)))
            core.apply(.connectTransport(id: id, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
            // As for a WebRTC subscriber: the publisher's header extensions are left out.
            core.transports[id]!.rewritesExtensions = rewritesExtensions
            core.apply(
                .addSink(MediaSinkSpec(id: UInt32(20 + index), transportId: id, outputSSRC: 0xBBBB_0000 + UInt32(index), isVideo: true, clockRate: 90_000)))
            core.apply(.bind(sink: UInt32(20 + index), source: 10))
            #expect(core.sinks[UInt32(20 + index)]?.sendPath.rewritesVP8 == (path.codec == "VP8"))
        }
        core.flushAll()
        let before = core.counters

        let sizes = [1100, 1100, 1100, 700, 400, 100]
        var packets: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let payload =
                path.codec == "VP8"
                ? ScriptedPacket.vp8Payload(keyframe: index == 0, size: size)
                : Self.h264Payload(first: index == 0, last: index == sizes.count - 1, size: size)
            packets.append(
                Self.withExtension(
                    ScriptedPacket.rtp(ssrc: 0xAAAA_0001, sequenceNumber: 500 + UInt16(index), timestamp: 90_000, marker: index == 5, payload: payload)))
        }
        let batch = Self.handleAsOneBatch(packets, core: core, from: publisher)
        defer { batch.deallocate() }
        // Sealed packets are whole in their slots already: nothing waits on the batch, and
        // overwriting it before the flush changes nothing that leaves.
        #expect(!core.queuedFromReceiveBatch)
        for index in 0..<batch.count { batch[index] = 0xEE }
        core.flushAll()

        #expect(core.counters.packetsOut - before.packetsOut == UInt64(2 * packets.count))
        #expect(core.counters.drops(.protectFailed) == before.drops(.protectFailed))
        for (index, receiver) in receivers.enumerated() {
            var decrypted: [[UInt8]] = []
            for var datagram in receiver.drain(expecting: packets.count) {
                var length = datagram.count
                let status = datagram.withUnsafeMutableBytes { decryptors[index].unprotectRTP($0.baseAddress!, length: &length) }
                #expect(status == .ok)
                decrypted.append(Array(datagram[0..<length]))
            }
            #expect(decrypted.count == packets.count)
            let headers = decrypted.compactMap(ScriptedPacket.header(of:))
            #expect(headers.allSatisfy { $0.ssrc == 0xBBBB_0000 + UInt32(index) })
            #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == Array(0..<UInt16(packets.count)), "in order")
            // With extensions rewritten the header is the fixed 12 bytes; otherwise the publisher's 20.
            let outputHeader = rewritesExtensions ? 12 : 20
            #expect(zip(decrypted, packets).allSatisfy { Array($0.0[outputHeader...]) == Array($0.1[20...]) }, "payloads as received")
        }
    }
}
