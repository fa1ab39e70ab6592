/// What kind of protocol a datagram on a multiplexed WebRTC port carries.
public enum PacketClass: Sendable, Equatable {
    /// A STUN message (ICE connectivity checks).
    case stun
    /// A DTLS record (key exchange for SRTP).
    case dtls
    /// An (S)RTP packet.
    case rtp
    /// An (S)RTCP packet.
    case rtcp
    /// Anything else, including packets too short for their apparent protocol.
    case unknown
}
