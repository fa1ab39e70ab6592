/// A parsed REMB message (draft-alvestrand-rmcat-remb-03): a PSFB application layer feedback
/// whose FCI starts with "REMB" and carries the receiver's estimate of the total bitrate it can
/// take for the SSRCs it lists.
public struct RTCPReceiverEstimatedMaximumBitrate: Sendable, Equatable {
    /// The four bytes that mark an application layer feedback as REMB.
    static let identifier: UInt32 = 0x5245_4D42
    public var senderSSRC: UInt32
    /// The estimate in bits per second (mantissa shifted by the exponent; saturates at UInt64.max).
    public var bitrate: UInt64
    /// How many SSRCs the estimate covers.
    public var ssrcCount: Int
    let ssrcsOffset: Int

    /// Parses `feedback`; nil when it is not a REMB message or its SSRC list runs past it.
    public init?(feedback: RTCPFeedback, in buffer: UnsafeRawBufferPointer) {
        guard feedback.packetType == RTCPPacketType.payloadFeedback, feedback.format == RTCPFeedbackFormat.applicationLayer,
            feedback.fciLength >= 8, feedback.fciOffset + feedback.fciLength <= buffer.count,
            buffer.readUInt32(at: feedback.fciOffset) == Self.identifier
        else { return nil }
        let word = buffer.readUInt32(at: feedback.fciOffset + 4)
        ssrcCount = Int(word >> 24)
        let exponent = Int((word >> 18) & 0x3F)
        let mantissa = UInt64(word & 0x3_FFFF)
        guard feedback.fciLength >= 8 + 4 * ssrcCount else { return nil }
        senderSSRC = feedback.senderSSRC
        // A mantissa of 18 bits shifted by up to 63 can exceed 64 bits.
        bitrate = mantissa == 0 ? 0 : (exponent > mantissa.leadingZeroBitCount ? UInt64.max : mantissa << exponent)
        ssrcsOffset = feedback.fciOffset + 8
    }

    /// The SSRC at `index` (0 ..< ``ssrcCount``), or nil when out of range.
    public func ssrc(at index: Int, in buffer: UnsafeRawBufferPointer) -> UInt32? {
        guard index >= 0, index < ssrcCount, ssrcsOffset + 4 * index + 4 <= buffer.count else { return nil }
        return buffer.readUInt32(at: ssrcsOffset + 4 * index)
    }
}
