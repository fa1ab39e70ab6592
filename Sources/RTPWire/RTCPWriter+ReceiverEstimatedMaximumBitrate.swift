extension RTCPWriter {
    /// Writes a REMB message from `senderSSRC` saying that the receiver can take `bitrate` bits
    /// per second for `ssrcs` (at most 255), with the largest exponent the 18-bit mantissa
    /// needs (the value is rounded down to what the mantissa holds).
    public static func writeReceiverEstimatedMaximumBitrate(
        senderSSRC: UInt32,
        bitrate: UInt64,
        ssrcs: some Collection<UInt32>,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) -> Int? {
        guard ssrcs.count <= 255 else { return nil }
        let length = 20 + 4 * ssrcs.count
        guard buffer.hasRoom(for: length, at: offset) else { return nil }
        var exponent = 0
        var mantissa = bitrate
        while mantissa > 0x3_FFFF {
            mantissa >>= 1
            exponent += 1
        }
        buffer[offset] = 0x80 | RTCPFeedbackFormat.applicationLayer
        buffer[offset + 1] = RTCPPacketType.payloadFeedback
        buffer.writeUInt16(UInt16(length / 4 - 1), at: offset + 2)
        buffer.writeUInt32(senderSSRC, at: offset + 4)
        buffer.writeUInt32(0, at: offset + 8)
        buffer.writeUInt32(RTCPReceiverEstimatedMaximumBitrate.identifier, at: offset + 12)
        buffer.writeUInt32(UInt32(ssrcs.count) << 24 | UInt32(exponent) << 18 | UInt32(mantissa), at: offset + 16)
        var position = offset + 20
        for ssrc in ssrcs {
            buffer.writeUInt32(ssrc, at: position)
            position += 4
        }
        return length
    }
}
