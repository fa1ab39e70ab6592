/// Plain RTP and RTCP packets for the tests.
enum TestPackets {
    /// An RTP packet with payload type 96, optional CSRCs and an optional one-word
    /// header extension, so header parsing on both sides gets exercised.
    static func rtp(
        ssrc: UInt32,
        sequenceNumber: UInt16,
        timestamp: UInt32 = 0x1234_5678,
        payload: [UInt8] = Array("relay payload bytes".utf8),
        csrcs: [UInt32] = [],
        withExtension: Bool = false
    ) -> [UInt8] {
        var packet: [UInt8] = [
            0x80 | (withExtension ? 0x10 : 0) | UInt8(csrcs.count), 96,
            UInt8(sequenceNumber >> 8), UInt8(truncatingIfNeeded: sequenceNumber),
        ]
        packet += SRTPReference.bigEndian(UInt64(timestamp), count: 4)
        packet += SRTPReference.bigEndian(UInt64(ssrc), count: 4)
        for csrc in csrcs {
            packet += SRTPReference.bigEndian(UInt64(csrc), count: 4)
        }
        if withExtension {
            // One-byte-header extension profile, one word: ID 1, length 2, value, padding.
            packet += [0xBE, 0xDE, 0x00, 0x01, 0x12, 0xAA, 0xBB, 0x00]
        }
        return packet + payload
    }

    /// A receiver report with one report block, from `ssrc`.
    static func rtcpReceiverReport(ssrc: UInt32) -> [UInt8] {
        [0x81, 201, 0x00, 0x07]
            + SRTPReference.bigEndian(UInt64(ssrc), count: 4)
            + [0x0A, 0x0B, 0x0C, 0x0D]  // reportee SSRC
            + [0x01, 0x00, 0x00, 0x02]  // fraction lost, cumulative lost
            + [0x00, 0x00, 0x12, 0x34]  // extended highest sequence number
            + [0x00, 0x00, 0x00, 0x10]  // jitter
            + [0x00, 0x00, 0x00, 0x00]  // last SR
            + [0x00, 0x00, 0x00, 0x00]  // delay since last SR
    }
}
