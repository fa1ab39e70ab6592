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
    public init(
        transportId: Int, kind: String? = nil, ip: String, port: Int, srtp: SRTPParameters?, ice: ICEParameters? = nil, dtls: DTLSParameters? = nil,
        iceServers: [ICEServer]? = nil
    ) {
        self.iceServers = iceServers
        self.transportId = transportId
        self.kind = kind
        self.ip = ip
        self.port = port
        self.srtp = srtp
        self.ice = ice
        self.dtls = dtls
    }
}
