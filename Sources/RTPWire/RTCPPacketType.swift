/// RTCP packet type values (the second byte of every RTCP packet).
public enum RTCPPacketType {
    /// Sender report, RFC 3550 section 6.4.1.
    public static let senderReport: UInt8 = 200
    /// Receiver report, RFC 3550 section 6.4.2.
    public static let receiverReport: UInt8 = 201
    /// Source description items, RFC 3550 section 6.5.
    public static let sourceDescription: UInt8 = 202
    /// Goodbye, RFC 3550 section 6.6.
    public static let goodbye: UInt8 = 203
    /// Application-defined, RFC 3550 section 6.7.
    public static let applicationDefined: UInt8 = 204
    /// Transport-layer feedback (RTPFB), RFC 4585.
    public static let transportFeedback: UInt8 = 205
    /// Payload-specific feedback (PSFB), RFC 4585.
    public static let payloadFeedback: UInt8 = 206
}
