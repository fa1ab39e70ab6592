/// Parameters of `createTransport`.
public struct CreateTransportParams: Sendable, Codable, Hashable {
    /// `srtp` (default): a UDP port of its own with SDES keys, for tools and servers. `webrtc`:
    /// ICE-lite, DTLS-SRTP and SDP on the relay's shared WebRTC port, for browsers and apps.
    public var kind: String?
    /// SRTP transports only: `AEAD_AES_128_GCM` (default), `AES_CM_128_HMAC_SHA1_80`, or `none`
    /// for plain RTP where the relay's configuration allows it.
    public var srtpProfile: String?
    public init(kind: String? = nil, srtpProfile: String? = nil) {
        self.kind = kind
        self.srtpProfile = srtpProfile
    }
}
