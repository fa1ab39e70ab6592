import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// Segment padding (`media.gsoPadding`) over real loopback sockets: a video packet a few bytes
/// shorter than its subscriber's open run of equal-size datagrams is padded to the run's size, so
/// the run leaves as one message; every subscriber still gets every packet, in order, and after
/// stripping the padding (and decrypting) exactly the payload the publisher sent.
@Suite(.enabled(if: pkr_udp_segmentation_supported() != 0, "the kernel does not support UDP_SEGMENT"))
struct MediaCoreSegmentPaddingTests {
    /// Two frames cut as libwebrtc cuts them (about equal packets, the larger ones last), then a
    /// one-packet frame: payload sizes.
    static let frameSizes = [1100, 1100, 1101, 1101, 1050, 1050, 1050, 1051, 1090]

    /// The payload of an RTP packet after its padding is stripped (RFC 3550 §5.1), or nil when
    /// the padding count is impossible.
    static func strippingPadding(_ packet: [UInt8]) -> [UInt8]? {
        guard packet.count > 12, packet[0] & 0x20 != 0 else { return packet }
        let count = Int(packet[packet.count - 1])
        guard count >= 1, count <= packet.count - 12 else { return nil }
        return Array(packet[0..<(packet.count - count)])
    }

    enum Subscriber: String, CaseIterable, Sendable { case plain, gcm, gcmRewritingExtensions, aesCM }

    @Test(arguments: Subscriber.allCases, [255, 0])
    func shorterVideoPacketsArePaddedToTheRunAndArriveIntact(subscriber: Subscriber, padding: Int) throws {
        let core = MediaCoreSegmentationTests.coreWithPublisher(segmented: true, segmentPadding: padding)
        let publisher = MediaCoreSegmentationTests.publisher
        let receiver = try SegmentedSendTests.Receiver()
        let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer {
            _ = pkr_close(fd)
            _ = pkr_close(receiver.fd)
        }
        let profile: SRTPProfile? =
            switch subscriber {
            case .plain: nil
            case .gcm, .gcmRewritingExtensions: .aeadAES128GCM
            case .aesCM: .aesCM128HMACSHA1_80
            }
        var decryptor: SRTPSession?
        var outbound: SRTPSessionHandoff?
        if let profile {
            let keys = (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
            decryptor = try SRTPSession(profile: profile, keyingMaterial: keys, direction: .receiver)
            outbound = SRTPSessionHandoff(try SRTPSession(profile: profile, keyingMaterial: keys, direction: .sender))
        }
        core.apply(.addTransport(id: 2, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: profile, outbound: outbound))
        core.apply(.connectTransport(id: 2, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
        core.transports[2]!.rewritesExtensions = subscriber == .gcmRewritingExtensions
        core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 2, outputSSRC: 0xBBBB_0000, isVideo: true, clockRate: 90_000)))
        core.apply(.bind(sink: 20, source: 10))
        core.flushAll()
        let before = core.counters

        var packets: [[UInt8]] = []
        for (index, size) in Self.frameSizes.enumerated() {
            let payload = ScriptedPacket.vp8Payload(keyframe: index == 0, size: size)
            packets.append(
                MediaCoreReceiveBatchTests.withExtension(
                    ScriptedPacket.rtp(ssrc: 0xAAAA_0001, sequenceNumber: 700 + UInt16(index), timestamp: 90_000 + 3000 * UInt32(index / 4), payload: payload)))
        }
        let batch = MediaCoreReceiveBatchTests.handleAsOneBatch(packets, core: core, from: publisher)
        defer { batch.deallocate() }
        core.flushAll()

        let messages = core.counters.sendMessages - before.sendMessages
        let padded = core.counters.paddedPackets - before.paddedPackets
        let paddingBytes = core.counters.paddingBytes - before.paddingBytes
        if padding > 0 {
            // [1100 x2] [1101 x2, then 1050, 1050, 1050, 1051, 1090 padded to 1101].
            #expect(messages == 2)
            #expect(padded == 5)
            #expect(paddingBytes == 51 * 3 + 50 + 11)
        } else {
            // [1100 x2] [1101 x2, 1050] [1050, 1050] [1051] [1090].
            #expect(messages == 5)
            #expect(padded == 0)
        }
        #expect(core.counters.packetsOut - before.packetsOut == UInt64(packets.count))

        let datagrams = receiver.drain(expecting: packets.count)
        #expect(datagrams.count == packets.count)
        var received: [[UInt8]] = []
        for var datagram in datagrams {
            var length = datagram.count
            if let decryptor {
                let status = datagram.withUnsafeMutableBytes { decryptor.unprotectRTP($0.baseAddress!, length: &length) }
                #expect(status == .ok)
            }
            received.append(Array(datagram[0..<length]))
        }
        if padding > 0 {
            #expect(Set(datagrams.suffix(7).map(\.count)).count == 1, "the second run's datagrams are all one size")
        }
        let headers = received.compactMap(ScriptedPacket.header(of:))
        #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == Array(0..<UInt16(packets.count)), "in order")
        #expect(received.filter { $0[0] & 0x20 != 0 }.count == Int(padded))
        let outputHeader = subscriber == .gcmRewritingExtensions ? 12 : 20
        let payloads = received.map { Self.strippingPadding($0).map { Array($0[outputHeader...]) } }
        #expect(payloads == packets.map { Optional(Array($0[20...])) }, "payloads as sent once the padding is stripped")
    }

    /// Audio is never padded, and a packet that already carries the sender's padding is left as
    /// it is.
    @Test func audioAndAlreadyPaddedPacketsAreNotPadded() throws {
        let core = MediaCoreSegmentationTests.coreWithPublisher(segmented: true, segmentPadding: 255)
        let publisher = MediaCoreSegmentationTests.publisher
        let receiver = try SegmentedSendTests.Receiver()
        let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer {
            _ = pkr_close(fd)
            _ = pkr_close(receiver.fd)
        }
        core.apply(.addSource(MediaSourceSpec(id: 11, transportId: 1, ssrc: 0xAAAA_0002, isVideo: false, codec: "opus", clockRate: 48_000)))
        core.apply(.addTransport(id: 2, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: nil, outbound: nil))
        core.apply(.connectTransport(id: 2, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
        core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 2, outputSSRC: 0xBBBB_0000, isVideo: true, clockRate: 90_000)))
        core.apply(.bind(sink: 20, source: 10))
        core.apply(.addSink(MediaSinkSpec(id: 21, transportId: 2, outputSSRC: 0xBBBB_0001, isVideo: false, clockRate: 48_000)))
        core.apply(.bind(sink: 21, source: 11))
        core.flushAll()

        let keyframe = ScriptedPacket.rtp(ssrc: 0xAAAA_0001, sequenceNumber: 1, timestamp: 0, payload: ScriptedPacket.vp8Payload(keyframe: true, size: 300))
        // A video packet 40 bytes shorter whose sender padded it by 10 already, then audio 100
        // and 90 bytes long after a video packet of 120.
        var senderPadded = ScriptedPacket.rtp(
            ssrc: 0xAAAA_0001, sequenceNumber: 2, timestamp: 0,
            payload: ScriptedPacket.vp8Payload(keyframe: false, size: 250) + [UInt8](repeating: 0, count: 9) + [10])
        senderPadded[0] |= 0x20
        let smallVideo = ScriptedPacket.rtp(
            ssrc: 0xAAAA_0001, sequenceNumber: 3, timestamp: 3000, payload: ScriptedPacket.vp8Payload(keyframe: false, size: 120))
        let audio = [100, 90].enumerated().map { index, size in
            ScriptedPacket.rtp(
                ssrc: 0xAAAA_0002, sequenceNumber: 40 + UInt16(index), timestamp: 960 * UInt32(index), payloadType: 111,
                payload: [UInt8](repeating: 0xAB, count: size))
        }
        let packets = [keyframe, senderPadded, smallVideo] + audio
        let batch = MediaCoreReceiveBatchTests.handleAsOneBatch(packets, core: core, from: publisher)
        defer { batch.deallocate() }
        core.flushAll()

        #expect(core.counters.paddedPackets == 0)
        let datagrams = receiver.drain(expecting: packets.count)
        #expect(datagrams.map(\.count) == packets.map(\.count), "every datagram as long as the packet it carries")
    }

    /// A subscriber without an RFC 4588 stream gets repairs on its own SSRC, under the first
    /// copy's SRTP index: a padded packet is repaired with exactly its padding, so the index seals
    /// the same bytes twice (with AES-GCM one nonce must never seal two plaintexts). The record
    /// is kept for every SRTP sink, so a packet sent while the sink still had an RTX stream is
    /// repaired exactly too; one no longer recorded is not repaired on the sink's own SSRC.
    @Test(arguments: [false, true])
    func anSRTPSubscribersRepairRepeatsItsPaddingOrIsNotSent(rtxUntilTheRepair: Bool) throws {
        let core = MediaCoreSegmentationTests.coreWithPublisher(segmented: true, segmentPadding: 255)
        let receiver = try SegmentedSendTests.Receiver()
        let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer {
            _ = pkr_close(fd)
            _ = pkr_close(receiver.fd)
        }
        let keys = (0..<SRTPProfile.aeadAES128GCM.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        let outbound = SRTPSessionHandoff(try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: keys, direction: .sender))
        core.apply(.addTransport(id: 2, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: .aeadAES128GCM, outbound: outbound))
        core.apply(.connectTransport(id: 2, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
        core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 2, outputSSRC: 0xBBBB_0000, isVideo: true, clockRate: 90_000)))
        if rtxUntilTheRepair { core.apply(.setSinkRetransmission(sink: 20, ssrc: 0xBBBB_0F00, payloadType: 97)) }
        core.apply(.bind(sink: 20, source: 10))
        core.flushAll()
        let before = core.counters

        let packets = Self.frameSizes.enumerated().map { index, size in
            ScriptedPacket.rtp(
                ssrc: 0xAAAA_0001, sequenceNumber: 700 + UInt16(index), timestamp: 90_000 + 3000 * UInt32(index / 4),
                payload: ScriptedPacket.vp8Payload(keyframe: index == 0, size: size))
        }
        let batch = MediaCoreReceiveBatchTests.handleAsOneBatch(packets, core: core, from: MediaCoreSegmentationTests.publisher)
        defer { batch.deallocate() }
        core.flushAll()
        #expect(core.counters.paddedPackets - before.paddedPackets == 5)
        let first = receiver.drain(expecting: packets.count)
        #expect(first.count == packets.count)
        if rtxUntilTheRepair { core.apply(.setSinkRetransmission(sink: 20, ssrc: 0, payloadType: 0)) }
        let sentBeforeRepairs = core.counters.packetsOut

        // The subscriber asks again for the first padded packet (1050 bytes, padded to 1101) and
        // for the last one of the first run, which was not padded.
        let sink = try #require(core.sinks[20])
        for asked in [first[4], first[1]] {
            core.retransmit(UInt16(asked[2]) << 8 | UInt16(asked[3]), to: sink)
            core.flushAll()
            let repair = receiver.drain(expecting: 1)
            let same = repair == [asked]
            #expect(same, "the repair is the first copy, byte for byte (\(repair.map(\.count)), \(asked.count) bytes)")
        }
        #expect(core.counters.retransmissionsSent - before.retransmissionsSent == 2)
        // A number the record no longer holds: 512 numbers on, its entry was written again.
        let forgotten = UInt16(first[0][2]) << 8 | UInt16(first[0][3])
        let record = try #require(sink.sentRecord)
        MediaCore.recordSent(forgotten &+ UInt16(MediaCore.sentRecordLength), serial: 1, padding: 0, in: record)
        core.retransmit(forgotten, to: sink)
        core.flushAll()
        #expect(core.counters.retransmissionsMissed - before.retransmissionsMissed == 1)
        #expect(core.counters.packetsOut == sentBeforeRepairs + 2, "nothing more on either SSRC")
    }
}
