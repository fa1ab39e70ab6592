import CSocketShims
import Foundation
import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// UDP generic segmentation offload over real loopback sockets: runs of equal-size datagrams to
/// one destination leave as one message each, and the receivers get every datagram intact, in
/// order, exactly as the plain path would have sent them.
@Suite(.enabled(if: pkr_udp_segmentation_supported() != 0, "the kernel does not support UDP_SEGMENT"))
struct SegmentedSendTests {
    /// A bound receiving socket on 127.0.0.1 that reads what has arrived.
    struct Receiver {
        let fd: Int32
        let port: UInt16

        init() throws {
            let fd = pkr_udp_open(0x7F00_0001, 0, 4 << 20, 0)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            self.fd = fd
            port = UInt16(pkr_udp_local_port(fd))
        }

        /// The datagrams that arrive within a second of the first (each read whole).
        func drain(expecting count: Int) -> [[UInt8]] {
            var datagrams: [[UInt8]] = []
            var buffer = [UInt8](repeating: 0, count: 70_000)
            let deadline = Date().addingTimeInterval(5)
            while datagrams.count < count, Date() < deadline {
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if got > 0 { datagrams.append(Array(buffer[0..<got])) } else { usleep(1000) }
            }
            return datagrams
        }
    }

    /// Fills slot `index` with `length` bytes that name the slot, for `receiver`.
    static func prepare(_ batch: OpaquePointer, _ index: Int, length: Int, to receiver: Receiver) {
        let slot = pkr_batch_buffer(batch, UInt32(index))!
        for offset in 0..<length { slot[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset) }
        pkr_batch_prepare(batch, UInt32(index), UInt32(length), 0x7F00_0001, receiver.port)
    }

    static func expected(_ index: Int, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }
    }

    @Test func runsBreakAtSizeDestinationAndMTUAndEveryDatagramArrivesWhole() throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let a = try Receiver()
        let b = try Receiver()
        defer {
            _ = pkr_close(a.fd)
            _ = pkr_close(b.fd)
        }
        // Runs: [1200 x5, 900] [1200 x3] [1300, 1300] [2000 alone: above one Ethernet payload]
        // [1200 x2 to b] [1200 to a] [100, 100, 100 to a].
        let plan: [(Int, Receiver)] =
            [1200, 1200, 1200, 1200, 1200, 900, 1200, 1200, 1200, 1300, 1300, 2000].map { ($0, a) }
            + [(1200, b), (1200, b), (1200, a), (100, a), (100, a), (100, a)]
        let batch = pkr_batch_create(UInt32(plan.count), 2048)!
        defer { pkr_batch_destroy(batch) }
        for (index, (length, receiver)) in plan.enumerated() { Self.prepare(batch, index, length: length, to: receiver) }

        var tally = pkr_send_tally()
        let sent = pkr_batch_send_segmented(sender, batch, UInt32(plan.count), &tally)
        #expect(sent == Int32(plan.count))
        #expect(tally.messages == 7, "one message per run")
        #expect(tally.calls == 1)
        #expect(tally.fallbacks == 0)

        let forA = plan.enumerated().filter { $0.element.1.port == a.port }.map { Self.expected($0.offset, length: $0.element.0) }
        let forB = plan.enumerated().filter { $0.element.1.port == b.port }.map { Self.expected($0.offset, length: $0.element.0) }
        #expect(a.drain(expecting: forA.count) == forA)
        #expect(b.drain(expecting: forB.count) == forB)
    }

    @Test(arguments: [(1200, 70, [54, 16]), (100, 70, [64, 6]), (1472, 3, [3]), (1473, 3, [1, 1, 1])])
    func runsStayWithinTheKernelsSegmentAndByteLimits(length: Int, count: Int, runs: [Int]) throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        let batch = pkr_batch_create(UInt32(count), 2048)!
        defer { pkr_batch_destroy(batch) }
        for index in 0..<count { Self.prepare(batch, index, length: length, to: receiver) }
        var tally = pkr_send_tally()
        #expect(pkr_batch_send_segmented(sender, batch, UInt32(count), &tally) == Int32(count))
        #expect(tally.messages == UInt32(runs.count))
        #expect(receiver.drain(expecting: count) == (0..<count).map { Self.expected($0, length: length) })
    }

    /// A datagram the kernel refuses outright (here to the broadcast address, without
    /// SO_BROADCAST: EACCES) is passed over so the rest go out, and counted as failed, not as
    /// delivered; on both send paths.
    @Test(arguments: [false, true])
    func aRefusedDatagramIsCountedAsFailedAndTheRestGoOut(segmented: Bool) throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        let batch = pkr_batch_create(3, 2048)!
        defer { pkr_batch_destroy(batch) }
        for index in 0..<3 { Self.prepare(batch, index, length: 600, to: receiver) }
        pkr_batch_prepare(batch, 1, 600, 0xFFFF_FFFF, receiver.port)
        var tally = pkr_send_tally()
        let sent = segmented ? pkr_batch_send_segmented(sender, batch, 3, &tally) : pkr_batch_send_tallied(sender, batch, 3, &tally)
        #expect(sent == 3, "every datagram is passed, the refused one included")
        #expect(tally.failed == 1)
        #expect(receiver.drain(expecting: 2) == [Self.expected(0, length: 600), Self.expected(2, length: 600)])
    }

    /// A socket without UDP checksums (SO_NO_CHECK) cannot segment: the kernel refuses the
    /// message with EINVAL, as a device without offload refuses it with EIO. Nothing is lost.
    @Test func aRunTheKernelRefusesGoesOutDatagramByDatagram() throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        var one: Int32 = 1
        #expect(setsockopt(sender, SOL_SOCKET, 11 /* SO_NO_CHECK */, &one, socklen_t(MemoryLayout<Int32>.size)) == 0)
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        let lengths = [1200, 1200, 1200, 700, 1000, 1000]
        let batch = pkr_batch_create(UInt32(lengths.count), 2048)!
        defer { pkr_batch_destroy(batch) }
        for (index, length) in lengths.enumerated() { Self.prepare(batch, index, length: length, to: receiver) }
        var tally = pkr_send_tally()
        #expect(pkr_batch_send_segmented(sender, batch, UInt32(lengths.count), &tally) == Int32(lengths.count))
        #expect(tally.fallbacks == 2)
        #expect(tally.messages == UInt32(lengths.count))
        #expect(receiver.drain(expecting: lengths.count) == lengths.enumerated().map { Self.expected($0.offset, length: $0.element) })
    }

    /// A socket with receive offload gets a run sent with segmentation offload on the same host
    /// as one message, with its segment size; datagrams sent one by one stay apart.
    @Test(.enabled(if: pkr_udp_receive_offload_supported() != 0, "the kernel does not support UDP_GRO"))
    func aSocketWithReceiveOffloadReadsARunAsOneMessageWithItsSegmentSize() throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        #expect(pkr_udp_enable_receive_offload(receiver.fd) == 0)
        let lengths = [1000, 1000, 1000, 1000, 600]
        let batch = pkr_batch_create(UInt32(lengths.count), 2048)!
        defer { pkr_batch_destroy(batch) }
        for (index, length) in lengths.enumerated() { Self.prepare(batch, index, length: length, to: receiver) }
        var tally = pkr_send_tally()
        #expect(pkr_batch_send_segmented(sender, batch, UInt32(lengths.count), &tally) == 5)
        #expect(pkr_batch_send_tallied(sender, batch, 2, &tally) == 2)

        let reading = pkr_batch_create(8, 65_536)!
        defer { pkr_batch_destroy(reading) }
        var messages: [(bytes: [UInt8], segment: Int)] = []
        for _ in 0..<500 where messages.count < 3 {
            let received = pkr_batch_receive(receiver.fd, reading)
            for index in 0..<UInt32(max(0, received)) {
                let bytes = Array(UnsafeBufferPointer(start: pkr_batch_buffer(reading, index), count: Int(pkr_batch_length(reading, index))))
                messages.append((bytes, Int(pkr_batch_segment_size(reading, index))))
            }
            if received <= 0 { usleep(1000) }
        }
        #expect(messages.map(\.bytes.count) == [4600, 1000, 1000])
        #expect(messages.map(\.segment) == [1000, 0, 0])
        #expect(messages.first?.bytes == lengths.enumerated().flatMap { Self.expected($0.offset, length: $0.element) })
    }

    /// Messages prepared in two parts (a head in the slot, the rest from a buffer elsewhere)
    /// leave as one datagram each, on the plain path and in segmented runs, where a split
    /// message and a whole one of the same size share a run.
    @Test(arguments: [false, true])
    func splitMessagesArriveWholeOnBothPaths(segmented: Bool) throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        // Split, whole, split, split (shorter: ends the run), whole.
        let plan: [(length: Int, head: Int?)] = [(1200, 12), (1200, nil), (1200, 28), (700, 12), (1000, nil)]
        let batch = pkr_batch_create(UInt32(plan.count), 2048)!
        defer { pkr_batch_destroy(batch) }
        let elsewhere = UnsafeMutableRawBufferPointer.allocate(byteCount: plan.count * 2048, alignment: 16)
        defer { elsewhere.deallocate() }
        for (index, step) in plan.enumerated() {
            let expected = Self.expected(index, length: step.length)
            let slot = pkr_batch_buffer(batch, UInt32(index))!
            guard let head = step.head else {
                Self.prepare(batch, index, length: step.length, to: receiver)
                continue
            }
            for offset in 0..<head { slot[offset] = expected[offset] }
            let tail = elsewhere.baseAddress! + index * 2048
            expected[head...].withUnsafeBytes { tail.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            pkr_batch_prepare_split(batch, UInt32(index), UInt32(head), tail, UInt32(step.length - head), 0x7F00_0001, receiver.port)
            #expect(pkr_batch_prepared_length(batch, UInt32(index)) == UInt32(step.length))
            var gathered = [UInt8](repeating: 0, count: step.length)
            #expect(pkr_batch_copy_prepared(batch, UInt32(index), &gathered, UInt32(step.length)) == UInt32(step.length))
            #expect(gathered == expected)
        }
        var tally = pkr_send_tally()
        let sent =
            segmented
            ? pkr_batch_send_segmented(sender, batch, UInt32(plan.count), &tally)
            : pkr_batch_send_tallied(sender, batch, UInt32(plan.count), &tally)
        #expect(sent == Int32(plan.count))
        #expect(tally.messages == (segmented ? 2 : 5), "runs [1200 x3, 700] [1000]")
        #expect(receiver.drain(expecting: plan.count) == plan.enumerated().map { Self.expected($0.offset, length: $0.element.length) })
    }

    @Test func thePlainPathCountsOneMessagePerDatagram() throws {
        let sender = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
        defer { _ = pkr_close(sender) }
        let receiver = try Receiver()
        defer { _ = pkr_close(receiver.fd) }
        let batch = pkr_batch_create(8, 2048)!
        defer { pkr_batch_destroy(batch) }
        for index in 0..<8 { Self.prepare(batch, index, length: 1000, to: receiver) }
        var tally = pkr_send_tally()
        #expect(pkr_batch_send_tallied(sender, batch, 8, &tally) == 8)
        #expect(tally.messages == 8 && tally.calls == 1)
        #expect(receiver.drain(expecting: 8).count == 8)
    }
}

/// The media core with the socket output: one frame fanned out to three SRTP subscribers
/// leaves as one message per subscriber with segmentation on, one per datagram with it off, and
/// one per datagram again when the kernel refuses to segment (a socket without UDP checksums):
/// in every case each subscriber decrypts every packet, in order.
@Suite(.enabled(if: pkr_udp_segmentation_supported() != 0, "the kernel does not support UDP_SEGMENT"))
struct MediaCoreSegmentationTests {
    enum Mode: String, CaseIterable, Sendable { case segmented, plain, refused }

    static let publisher = PeerEndpoint(ip: 0x7F00_0001, port: 5000)

    /// A core sending through real sockets, with a plain VP8 publisher on transport 1 (source
    /// 10, SSRC 0xAAAA0001) sending from ``publisher``.
    /// `segmentPadding`: `media.gsoPadding`.
    static func coreWithPublisher(segmented: Bool, codec: String = "VP8", segmentPadding: Int = 0) -> MediaCore {
        let (_, continuation) = AsyncStream.makeStream(of: MediaPlaneEvent.self)
        var configuration = MediaPlaneConfiguration()
        configuration.segmentationOffload = segmented ? .on : .off
        configuration.segmentPaddingBytes = segmentPadding
        let core = MediaCore(
            configuration: configuration, reports: ReportStore(), output: SocketDatagramOutput(webRTCFD: -1, segmented: segmented),
            hasWebRTCSocket: false, events: continuation, randomSeed: 7)
        core.advanceClock(monotonicMs: 1_000_000, unixMs: 1_700_001_000_000)
        core.apply(.addTransport(id: 1, fd: -1, port: 40_001, profile: nil, outbound: nil))
        core.apply(.connectTransport(id: 1, remote: publisher, inbound: nil, addressGranted: true))
        core.apply(.addSource(MediaSourceSpec(id: 10, transportId: 1, ssrc: 0xAAAA_0001, isVideo: true, codec: codec, clockRate: 90_000)))
        return core
    }

    @Test(arguments: Mode.allCases)
    func aFrameLeavesAsOneMessagePerSubscriberAndDecrypts(mode: Mode) throws {
        let core = Self.coreWithPublisher(segmented: mode != .plain)
        let publisher = Self.publisher
        var receivers: [SegmentedSendTests.Receiver] = []
        var decryptors: [SRTPSession] = []
        var sockets: [Int32] = []
        defer { for fd in sockets + receivers.map(\.fd) { _ = pkr_close(fd) } }
        for index in 0..<3 {
            let receiver = try SegmentedSendTests.Receiver()
            let fd = pkr_udp_open(0x7F00_0001, 0, 0, 4 << 20)
            if mode == .refused {
                var one: Int32 = 1
                #expect(setsockopt(fd, SOL_SOCKET, 11 /* SO_NO_CHECK */, &one, socklen_t(MemoryLayout<Int32>.size)) == 0)
            }
            receivers.append(receiver)
            sockets.append(fd)
            let keys = (0..<SRTPProfile.aeadAES128GCM.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            decryptors.append(try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: keys, direction: .receiver))
            let outbound = try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: keys, direction: .sender)
            let id = 2 + index
            core.apply(.addTransport(id: id, fd: fd, port: Int(pkr_udp_local_port(fd)), profile: .aeadAES128GCM, outbound: SRTPSessionHandoff(outbound)))
            core.apply(.connectTransport(id: id, remote: PeerEndpoint(ip: 0x7F00_0001, port: receiver.port), inbound: nil, addressGranted: true))
            core.apply(
                .addSink(MediaSinkSpec(id: UInt32(20 + index), transportId: id, outputSSRC: 0xBBBB_0000 + UInt32(index), isVideo: true, clockRate: 90_000)))
            core.apply(.bind(sink: UInt32(20 + index), source: 10))
        }
        core.flushAll()
        let before = core.counters

        // One keyframe of eight packets, read in one batch: seven of 1100 payload bytes and a
        // shorter last one, as a packetiser cuts a frame.
        var packets: [[UInt8]] = []
        for index in 0..<8 {
            let payload = ScriptedPacket.vp8Payload(keyframe: index == 0, size: index == 7 ? 400 : 1100)
            packets.append(ScriptedPacket.rtp(ssrc: 0xAAAA_0001, sequenceNumber: 500 + UInt16(index), timestamp: 90_000, marker: index == 7, payload: payload))
        }
        for packet in packets {
            var buffer = packet + [UInt8](repeating: 0, count: 64)
            buffer.withUnsafeMutableBytes { core.handleDatagram(on: core.transports[1]!, buffer: $0.baseAddress!, length: packet.count, from: publisher) }
        }
        core.flushAll()

        #expect(core.counters.packetsOut - before.packetsOut == 24)
        // Each packet grew by the AES-GCM tag (16 bytes); bytes count datagrams, not messages.
        #expect(core.counters.bytesOut - before.bytesOut == UInt64(3 * packets.reduce(0) { $0 + $1.count + 16 }))
        #expect(core.counters.sendMessages - before.sendMessages == (mode == .segmented ? 3 : 24))
        #expect(core.counters.segmentationFallbacks - before.segmentationFallbacks == (mode == .refused ? 3 : 0))
        for (index, receiver) in receivers.enumerated() {
            var decrypted: [[UInt8]] = []
            for var datagram in receiver.drain(expecting: 8) {
                var length = datagram.count
                let status = datagram.withUnsafeMutableBytes { decryptors[index].unprotectRTP($0.baseAddress!, length: &length) }
                #expect(status == .ok)
                decrypted.append(Array(datagram[0..<length]))
            }
            #expect(decrypted.count == 8)
            let headers = decrypted.compactMap(ScriptedPacket.header(of:))
            #expect(headers.allSatisfy { $0.ssrc == 0xBBBB_0000 + UInt32(index) })
            #expect(headers.map { $0.sequenceNumber &- headers[0].sequenceNumber } == Array(0..<8), "in order")
            #expect(zip(decrypted, packets).allSatisfy { Array($0.0[12...]) == Array($0.1[12...]) }, "payloads as sent")
        }
    }
}
