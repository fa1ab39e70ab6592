import RTPWire

/// Builds RTP and RTCP byte arrays for tests, field by field, so each test shows the
/// layout it exercises.
enum TestPacket {
    /// Appends `value` in network byte order.
    static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    /// Appends `value` in network byte order.
    static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Appends `value` in network byte order.
    static func append64(_ value: UInt64, to bytes: inout [UInt8]) {
        append32(UInt32(value >> 32), to: &bytes)
        append32(UInt32(value & 0xFFFF_FFFF), to: &bytes)
    }

    /// An RTP packet. `extensionData` is padded by the caller to a multiple of 4 bytes;
    /// `padding` > 0 appends that many padding bytes (the last holds the count).
    static func rtp(
        marker: Bool = false,
        payloadType: UInt8 = 96,
        sequenceNumber: UInt16 = 0x1234,
        timestamp: UInt32 = 0xDEAD_BEEF,
        ssrc: UInt32 = 0x1122_3344,
        csrcs: [UInt32] = [],
        extensionProfile: UInt16? = nil,
        extensionData: [UInt8] = [],
        payload: [UInt8] = [1, 2, 3, 4],
        padding: Int = 0
    ) -> [UInt8] {
        precondition(extensionData.count % 4 == 0)
        var bytes: [UInt8] = []
        var first: UInt8 = 0x80 | UInt8(csrcs.count)
        if padding > 0 { first |= 0x20 }
        if extensionProfile != nil { first |= 0x10 }
        bytes.append(first)
        bytes.append((marker ? 0x80 : 0) | payloadType)
        append16(sequenceNumber, to: &bytes)
        append32(timestamp, to: &bytes)
        append32(ssrc, to: &bytes)
        for csrc in csrcs { append32(csrc, to: &bytes) }
        if let extensionProfile {
            append16(extensionProfile, to: &bytes)
            append16(UInt16(extensionData.count / 4), to: &bytes)
            bytes += extensionData
        }
        bytes += payload
        if padding > 0 {
            bytes += [UInt8](repeating: 0, count: padding - 1)
            bytes.append(UInt8(padding))
        }
        return bytes
    }

    /// An RTCP common header followed by `body`; the length field is derived from the body
    /// unless `lengthWords` overrides it.
    static func rtcp(
        countOrFormat: UInt8,
        packetType: UInt8,
        body: [UInt8],
        lengthWords: UInt16? = nil,
        version: UInt8 = 2
    ) -> [UInt8] {
        var bytes: [UInt8] = [version << 6 | countOrFormat, packetType]
        append16(lengthWords ?? UInt16((body.count + 4) / 4 - 1), to: &bytes)
        return bytes + body
    }

    /// A 24-byte report block.
    static func reportBlock(
        ssrc: UInt32,
        fractionLost: UInt8,
        cumulativeLost24: UInt32,
        highest: UInt32,
        jitter: UInt32,
        lsr: UInt32,
        dlsr: UInt32
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        append32(ssrc, to: &bytes)
        append32(UInt32(fractionLost) << 24 | (cumulativeLost24 & 0xFF_FFFF), to: &bytes)
        append32(highest, to: &bytes)
        append32(jitter, to: &bytes)
        append32(lsr, to: &bytes)
        append32(dlsr, to: &bytes)
        return bytes
    }

    /// Collects every packet view of a compound packet plus the iterator's verdict.
    static func views(of bytes: [UInt8]) -> (views: [RTCPPacketViewSummary], malformed: Bool) {
        bytes.withUnsafeBytes { buffer in
            var iterator = RTCPPacketIterator(buffer)
            var views: [RTCPPacketViewSummary] = []
            // The cap only guards the test itself against an iterator that never stops.
            while let view = iterator.next(), views.count < 10_000 {
                views.append(RTCPPacketViewSummary(view))
            }
            return (views, iterator.isMalformed)
        }
    }
}
