import RTPWire
import Testing

/// Arrival times as a table: offset from the base to microseconds, nil for a missing packet.
struct ArrivalTable: TransportFeedbackArrivals {
    var arrivals: [Int64?]
    func arrivalUs(at offset: Int) -> Int64? { offset < arrivals.count ? arrivals[offset] : nil }
}

/// Transport-wide congestion control feedback (RTPFB FMT 15): the writer's bytes, the parser,
/// and round trips through both with the cases libwebrtc's sender meets.
@Suite("Transport-wide feedback")
struct TransportFeedbackTests {
    /// Writes a feedback for `arrivals` into a buffer of `size` bytes.
    static func write(
        _ arrivals: [Int64?], base: UInt16 = 100, count: Int? = nil, size: Int = 1200, feedbackCount: UInt8 = 7
    )
        -> (bytes: [UInt8], packetCount: Int)?
    {
        var bytes = [UInt8](repeating: 0xEE, count: size)
        let result = bytes.withUnsafeMutableBytes {
            RTCPWriter.writeTransportFeedback(
                senderSSRC: 0x0102_0304, mediaSSRC: 0x0506_0708, baseSequenceNumber: base, maximumPacketCount: count ?? arrivals.count,
                feedbackPacketCount: feedbackCount, arrivals: ArrivalTable(arrivals: arrivals), into: $0, at: 0)
        }
        guard let result else { return nil }
        return (Array(bytes[0..<result.length]), result.packetCount)
    }

    /// Parses the one feedback in `bytes`: the feedback and its packets.
    static func parse(_ bytes: [UInt8]) throws -> (feedback: RTCPTransportFeedback, packets: [(UInt16, Int64?)]) {
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            #expect(iterator.next() == nil && !iterator.isMalformed)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            let feedback = try #require(RTCPTransportFeedback(feedback: common, in: buffer))
            var packets: [(UInt16, Int64?)] = []
            feedback.forEachPacket(in: buffer) { packets.append(($0, $1)) }
            return (feedback, packets)
        }
    }

    @Test("The bytes of a feedback with both delta sizes, a loss and padding")
    func knownBytes() throws {
        // 1 s, then 250 µs later, a loss, then 70 ms later: deltas of 160 ticks after the
        // reference (15 x 64 ms = 960 ms), 1, and 280 (two bytes).
        let written = try #require(Self.write([1_000_000, 1_000_250, nil, 1_070_250]))
        #expect(written.packetCount == 4)
        #expect(
            written.bytes == [
                0xAF, 0xCD, 0x00, 0x06,  // V=2, P, FMT 15, RTPFB, 7 words
                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                0x00, 0x64, 0x00, 0x04,  // base 100, 4 packets
                0x00, 0x00, 0x0F, 0x07,  // reference time 15, feedback 7
                0xD4, 0x80,  // two-bit vector: small, small, not received, large
                0xA0, 0x01, 0x01, 0x18,  // deltas 160, 1, 280
                0x00, 0x02,  // padding, its count last
            ])
        let parsed = try Self.parse(written.bytes)
        #expect(parsed.feedback.baseSequenceNumber == 100 && parsed.feedback.packetStatusCount == 4)
        #expect(parsed.feedback.referenceTime == 15 && parsed.feedback.feedbackPacketCount == 7 && parsed.feedback.receivedCount == 3)
        #expect(parsed.packets.map(\.0) == [100, 101, 102, 103])
        #expect(parsed.packets.map(\.1) == [1_000_000, 1_000_250, nil, 1_070_250])
    }

    @Test("A run of received packets is one run-length chunk")
    func runLength() throws {
        let arrivals: [Int64?] = (0..<20).map { 64_000 + Int64($0) * 250 }
        let written = try #require(Self.write(arrivals))
        #expect(Array(written.bytes[20..<22]) == [0x20, 0x14])
        #expect(try Self.parse(written.bytes).packets.map(\.1) == arrivals)
    }

    @Test("A long loss between two packets: a one-bit vector, a run of losses, a run of one")
    func longLoss() throws {
        let arrivals: [Int64?] = [128_000] + Array(repeating: nil, count: 98) + [128_250]
        let written = try #require(Self.write(arrivals))
        #expect(Array(written.bytes[20..<26]) == [0xA0, 0x00, 0x00, 0x55, 0x20, 0x01])
        let parsed = try Self.parse(written.bytes)
        #expect(parsed.packets.count == 100)
        #expect(parsed.packets.map(\.1) == arrivals)
    }

    @Test("Reordered packets carry negative deltas")
    func reordered() throws {
        let arrivals: [Int64?] = [500_000, 480_000, 520_000, 519_750]
        let parsed = try Self.parse(try #require(Self.write(arrivals)).bytes)
        #expect(parsed.packets.map(\.1) == arrivals)
    }

    @Test("Times off the 250 µs grid are rounded without drifting")
    func rounding() throws {
        // Each packet 1.1 ms after the last: rounded to 4 ticks each time, a sum of deltas would
        // fall 0.1 ms further behind at every packet; deltas from the reported times do not.
        let arrivals: [Int64?] = (0..<40).map { 64_000 + Int64($0) * 1100 }
        let parsed = try Self.parse(try #require(Self.write(arrivals)).bytes)
        for (written, read) in zip(arrivals, parsed.packets.map(\.1)) {
            #expect(abs(written! - read!) <= 125)
        }
    }

    @Test("Sequence numbers wrap after 65535")
    func wrap() throws {
        let parsed = try Self.parse(try #require(Self.write([64_000, 64_250, 64_500], base: 65_534)).bytes)
        #expect(parsed.packets.map(\.0) == [65_534, 65_535, 0])
    }

    @Test("A delta over 16 bits ends the feedback before its packet")
    func deltaTooLarge() throws {
        let written = try #require(Self.write([64_000, 64_000 + 9_000_000, 64_000 + 9_000_250]))
        #expect(written.packetCount == 1)
        #expect(try Self.parse(written.bytes).packets.count == 1)
    }

    @Test("A small buffer takes what fits, and the rest waits")
    func capacity() throws {
        let arrivals: [Int64?] = (0..<400).map { 64_000 + Int64($0) * 5000 }
        let written = try #require(Self.write(arrivals, size: 120))
        #expect(written.bytes.count <= 120)
        #expect(written.packetCount >= 40 && written.packetCount < 400)
        let parsed = try Self.parse(written.bytes)
        #expect(parsed.packets.map(\.1) == Array(arrivals[0..<written.packetCount]))
    }

    @Test("Nothing received, nothing written")
    func nothingReceived() {
        #expect(Self.write([nil, nil, nil]) == nil)
        #expect(Self.write([64_000], size: 20) == nil)
    }

    @Test("Symbol mixes survive the chunker", arguments: [1, 2, 3, 5, 8, 13, 21])
    func mixes(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var time: Int64 = 1_000_000
        var arrivals: [Int64?] = []
        for _ in 0..<300 {
            switch random.next() % 6 {
            case 0: arrivals.append(nil)
            case 1:
                time += Int64(random.next() % 200_000)
                arrivals.append(time)
            case 2: arrivals.append(time - Int64(random.next() % 5000))
            default:
                time += Int64(random.next() % 10_000)
                arrivals.append(time)
            }
        }
        arrivals[0] = arrivals[0] ?? 1_000_000
        arrivals[arrivals.count - 1] = time
        let written = try #require(Self.write(arrivals))
        #expect(written.packetCount == 300)
        let parsed = try Self.parse(written.bytes)
        #expect(parsed.packets.count == 300)
        for (expected, read) in zip(arrivals, parsed.packets.map(\.1)) {
            #expect((expected == nil) == (read == nil))
            if let expected, let read { #expect(abs(expected - read) <= 125) }
        }
    }

    @Test(
        "The parser refuses what libwebrtc's would",
        arguments: [
            // No packets.
            [0x8F, 0xCD, 0x00, 0x04, 0, 0, 0, 1, 0, 0, 0, 2, 0x00, 0x01, 0x00, 0x00, 0, 0, 1, 0],
            // Five packets, but one chunk covering one and nothing after it.
            [0x8F, 0xCD, 0x00, 0x05, 0, 0, 0, 1, 0, 0, 0, 2, 0x00, 0x01, 0x00, 0x05, 0, 0, 1, 0, 0x20, 0x01, 0x00, 0x00],
            // One received packet whose delta is missing.
            [0x8F, 0xCD, 0x00, 0x05, 0, 0, 0, 1, 0, 0, 0, 2, 0x00, 0x01, 0x00, 0x02, 0, 0, 1, 0, 0x40, 0x02, 0x00, 0x00],
            // The reserved symbol in a run.
            [0x8F, 0xCD, 0x00, 0x05, 0, 0, 0, 1, 0, 0, 0, 2, 0x00, 0x01, 0x00, 0x01, 0, 0, 1, 0, 0x60, 0x01, 0x00, 0x00],
        ] as [[UInt8]])
    func refused(bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            #expect(RTCPTransportFeedback(feedback: common, in: buffer) == nil)
        }
    }

    @Test("A NACK is not a transport-wide feedback")
    func otherFormats() throws {
        var bytes = [UInt8](repeating: 0, count: 16)
        _ = bytes.withUnsafeMutableBytes { RTCPWriter.writeGenericNACK(senderSSRC: 1, mediaSSRC: 2, packetID: 3, lostBitmask: 0, into: $0, at: 0) }
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            #expect(RTCPTransportFeedback(feedback: common, in: buffer) == nil)
        }
    }

    @Test("REMB: bytes, round trip, and the exponent")
    func receiverEstimatedMaximumBitrate() throws {
        var bytes = [UInt8](repeating: 0, count: 28)
        let length = bytes.withUnsafeMutableBytes {
            RTCPWriter.writeReceiverEstimatedMaximumBitrate(senderSSRC: 0x0A0B_0C0D, bitrate: 1_000_000, ssrcs: [0x1111_1111, 0x2222_2222], into: $0, at: 0)
        }
        #expect(length == 28)
        // 1 000 000 = 250 000 << 2.
        #expect(Array(bytes[0..<20]) == [0x8F, 0xCE, 0x00, 0x06, 0x0A, 0x0B, 0x0C, 0x0D, 0, 0, 0, 0, 0x52, 0x45, 0x4D, 0x42, 0x02, 0x0B, 0xD0, 0x90])
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            let remb = try #require(RTCPReceiverEstimatedMaximumBitrate(feedback: common, in: buffer))
            #expect(remb.senderSSRC == 0x0A0B_0C0D && remb.bitrate == 1_000_000 && remb.ssrcCount == 2)
            #expect(remb.ssrc(at: 1, in: buffer) == 0x2222_2222 && remb.ssrc(at: 2, in: buffer) == nil)
            #expect(RTCPTransportFeedback(feedback: common, in: buffer) == nil)
        }
    }

    @Test("REMB rounds down to what an 18-bit mantissa holds")
    func rembRounding() throws {
        var bytes = [UInt8](repeating: 0, count: 24)
        _ = bytes.withUnsafeMutableBytes {
            RTCPWriter.writeReceiverEstimatedMaximumBitrate(senderSSRC: 1, bitrate: 123_456_789, ssrcs: CollectionOfOne(UInt32(5)), into: $0, at: 0)
        }
        try bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            let first = iterator.next()
            let view = try #require(first)
            let common = try #require(RTCPFeedback(view: view, in: buffer))
            let remb = try #require(RTCPReceiverEstimatedMaximumBitrate(feedback: common, in: buffer))
            #expect(remb.bitrate <= 123_456_789 && remb.bitrate > 123_456_789 - 1024)
        }
    }

    @Test("The transport-wide sequence number extension")
    func sequenceNumberExtension() throws {
        // One-byte form, id 3, two bytes 0x12 0x34, then padding.
        let packet = TestPacket.rtp(extensionProfile: 0xBEDE, extensionData: [0x31, 0x12, 0x34, 0x00], payload: [1, 2, 3])
        try packet.withUnsafeBytes { buffer in
            let header = try #require(RTPHeader.parse(buffer))
            #expect(RTPHeaderExtensions.transportWideSequenceNumber(in: buffer, header: header, id: 3) == 0x1234)
            #expect(RTPHeaderExtensions.transportWideSequenceNumber(in: buffer, header: header, id: 4) == nil)
        }
    }
}
