/// How a transport carries media: its own UDP port keyed by SDES (`srtp`, plain RTP among
/// them), or WebRTC on its shard's shared port, whose receiving side the relay negotiates in SDP.
public enum TransportKind: Sendable, Hashable {
    case srtp
    case webRTC
}
