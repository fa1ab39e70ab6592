/// One track a publisher declares in `publishStream`.
public struct TrackDescription: Sendable, Codable, Hashable {
    public var kind: TrackKind
    /// The SSRC the publisher sends this track with; unique on its transport, not 0.
    public var ssrc: UInt32
    /// 0-127.
    public var payloadType: Int
    /// `opus`, `VP8`, `VP9`, `H264`, `AV1`, `PCMU`, `PCMA` (case-insensitive).
    public var codec: String
    public var clockRate: Int
    /// Audio channels (default 1; Opus is announced as 2 in SDP).
    public var channels: Int?
    /// Codec parameters as an SDP fmtp string; travels unchanged to subscribers.
    public var parameters: String?
    /// The transport this track arrives on, when it differs from the stream's.
    public var transportId: Int?
    /// The RFC 8285 header-extension id (1-14 one-byte, up to 255 two-byte) carrying the RFC 6464
    /// client-to-mixer audio level; audio tracks only. Without it the track takes no part in volume reports.
    public var audioLevelExtensionId: Int?
    /// Video only: which encoding of a dual-stream publisher this track is (default big). A small
    /// or medium track needs a big one in the same stream, with the same codec and payload type.
    public var videoStreamType: VideoStreamType?
    /// WebRTC simulcast: the RTP stream id (`a=rid`) the layer is sent with. The relay learns the
    /// layer's SSRC from its first packet, so `ssrc` may then be 0.
    public var rid: String?
    /// Video only: the SSRC of the track's RFC 4588 retransmission stream, when the publisher
    /// retransmits on one (with `rtxPayloadType`). The relay unwraps those packets into the track.
    public var rtxSSRC: UInt32?
    /// Video only: the payload type of the retransmission stream (`rtx` with `apt=payloadType`).
    public var rtxPayloadType: Int?

    public init(
        kind: TrackKind, ssrc: UInt32, payloadType: Int, codec: String, clockRate: Int, channels: Int? = nil, parameters: String? = nil,
        transportId: Int? = nil, audioLevelExtensionId: Int? = nil, videoStreamType: VideoStreamType? = nil
    ) {
        self.kind = kind
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.codec = codec
        self.clockRate = clockRate
        self.channels = channels
        self.parameters = parameters
        self.transportId = transportId
        self.audioLevelExtensionId = audioLevelExtensionId
        self.videoStreamType = videoStreamType
    }
}
