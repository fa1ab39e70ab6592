import ICE
import MediaPlane
import Protocol
import SecureTransport

/// What a ``WebRTCSession`` asks the relay core to do after an event: the core carries the
/// effects out in order and decides nothing about them.
enum WebRTCEffect {
    /// DTLS records for the client, in order, from the transport's WebRTC port.
    case send([[UInt8]], to: PeerEndpoint)
    /// The client's ICE credentials: its connectivity checks must name its ufrag from now on.
    case setRemoteICECredentials(ICECredentials)
    /// An ICE restart: checks must name these credentials from now on.
    case restartICE(local: ICECredentials, remote: ICECredentials)
    /// DTLS is through: media flows with these sessions.
    case connectMedia(inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff, profile: SRTPProfile)
    /// The congestion control the SDP settled (transport-wide feedback to a publisher).
    case congestionControl(CongestionControlSpec)
    /// An event for the transport's connection.
    case event(ServerEvent)
    /// The relay gave up on the transport (or the client closed DTLS): its streams end with
    /// `unpublishReason`, and it closes.
    case ended(unpublishReason: UnpublishReason, reason: String)
}
