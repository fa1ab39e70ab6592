/// Parameters of `createTransport`.
public struct CreateTransportParams: Sendable, Codable, Hashable {
    /// `srtp` (default): a UDP port of its own with SDES keys, for tools and servers. `webrtc`:
    /// ICE-lite, DTLS-SRTP and SDP on one of the relay's WebRTC ports (one per media
    /// thread), for browsers and apps.
    public var kind: String?
    /// SRTP transports only: `AEAD_AES_128_GCM` (default), `AES_CM_128_HMAC_SHA1_80`, or `none`
    /// for plain RTP where the relay's configuration allows it.
    public var srtpProfile: String?
    /// The room the transport is for, when that is not the connection's first room (a
    /// transport opened before `joinRoom`, or for a second room): the relay places it on that
    /// room's data-plane thread. A WebRTC transport's port is its thread's, fixed at creation.
    public var roomId: String?
    /// SRTP transports only, 1-14: the RFC 8285 one-byte header-extension id under which both
    /// sides carry a transport-wide sequence number
    /// (draft-holmer-rmcat-transport-wide-cc-extensions-01). The relay sends transport-wide
    /// feedback about the client's packets that carry one, and stamps its own on every RTP
    /// packet it sends, whose feedback from the client drives its estimate of the client's
    /// downlink and paces what it sends. A WebRTC transport negotiates this in SDP.
    public var transportWideSequenceExtensionId: Int?
    /// True for a transport that will only receive (the web SDK's receiving transport): the
    /// relay refuses to publish on it, and may place it on another data-plane thread than its
    /// room's when the room's audience has outgrown one (`media.spreadRoomAfter`). An audience
    /// member's transports are placed so without it.
    public var receiveOnly: Bool?

    public init(
        kind: String? = nil, srtpProfile: String? = nil, roomId: String? = nil, transportWideSequenceExtensionId: Int? = nil, receiveOnly: Bool? = nil
    ) {
        self.kind = kind
        self.srtpProfile = srtpProfile
        self.roomId = roomId
        self.transportWideSequenceExtensionId = transportWideSequenceExtensionId
        self.receiveOnly = receiveOnly
    }
}
