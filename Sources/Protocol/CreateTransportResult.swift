/// Result of `createTransport`: where to send media, and the key the relay encrypts with (SRTP)
/// or its ICE and DTLS parameters (WebRTC, which SDP carries as well).
public struct CreateTransportResult: Sendable, Codable, Hashable {
    public var transportId: Int
    /// `srtp` or `webrtc`.
    public var kind: String?
    public var ip: String
    public var port: Int
    /// SRTP transports only; absent for plain RTP.
    public var srtp: SRTPParameters?
    /// WebRTC transports only.
    public var ice: ICEParameters?
    /// WebRTC transports only.
    public var dtls: DTLSParameters?
    /// WebRTC transports only, when the relay names STUN or TURN servers (`ice.servers`).
    public var iceServers: [ICEServer]?
    /// SRTP transports only: the transport-wide sequence number's header-extension id the
    /// request named, when the relay takes part (absent when `media.congestionFeedback` is off:
    /// the relay then neither stamps numbers nor sends feedback).
    public var transportWideSequenceExtensionId: Int?
    public init(
        transportId: Int, kind: String? = nil, ip: String, port: Int, srtp: SRTPParameters?, ice: ICEParameters? = nil, dtls: DTLSParameters? = nil,
        iceServers: [ICEServer]? = nil, transportWideSequenceExtensionId: Int? = nil
    ) {
        self.iceServers = iceServers
        self.transportWideSequenceExtensionId = transportWideSequenceExtensionId
        self.transportId = transportId
        self.kind = kind
        self.ip = ip
        self.port = port
        self.srtp = srtp
        self.ice = ice
        self.dtls = dtls
    }
}
