/// Tells STUN, DTLS, RTP and RTCP apart on one port, following RFC 7983 for the first byte
/// and RFC 5761 for RTP versus RTCP.
public enum PacketDemultiplexer {
    /// Smallest STUN message: the 20-byte header.
    static let minimumSTUNLength = 20
    /// Smallest DTLS record: the 13-byte record header.
    static let minimumDTLSLength = 13
    /// Smallest RTCP packet with an SSRC: header plus sender SSRC.
    static let minimumRTCPLength = 8

    /// Classifies `packet` by its first two bytes and its length.
    ///
    /// First byte 0...3 is STUN, 20...63 DTLS, 128...191 RTP or RTCP (version 2). Among the
    /// latter, a second byte in 192...223 is an RTCP packet type (RFC 5761 keeps RTP payload
    /// types out of 64...95). TURN channel data (64...79) and everything else is `unknown`,
    /// as is a packet shorter than the smallest valid message of its class.
    public static func classify(_ packet: UnsafeRawBufferPointer) -> PacketClass {
        guard packet.count > 0 else { return .unknown }
        let first = packet[0]
        switch first {
        case 0...3:
            return packet.count >= minimumSTUNLength ? .stun : .unknown
        case 20...63:
            return packet.count >= minimumDTLSLength ? .dtls : .unknown
        case 128...191:
            guard packet.count >= 2 else { return .unknown }
            if (192...223).contains(packet[1]) {
                return packet.count >= minimumRTCPLength ? .rtcp : .unknown
            }
            return packet.count >= RTPHeader.fixedHeaderLength ? .rtp : .unknown
        default:
            return .unknown
        }
    }
}
