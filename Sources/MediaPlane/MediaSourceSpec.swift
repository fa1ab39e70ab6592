/// A published track the data plane should accept.
public struct MediaSourceSpec: Sendable, Hashable {
    public var id: UInt32
    public var transportId: Int
    public var ssrc: UInt32
    public var isVideo: Bool
    /// Codec name (e.g. VP8, H264, opus).
    public var codec: String
    public var clockRate: UInt32
    /// The header-extension id carrying the RFC 6464 audio level (audio only), or nil.
    public var audioLevelExtensionId: UInt8?
    /// WebRTC simulcast: the RTP stream id this layer's packets carry under `ridExtensionId`;
    /// with `ssrc` 0 the data plane adopts the SSRC of the first packet that names it.
    public var rid: [UInt8]?
    public var ridExtensionId: UInt8?
    /// The RFC 4588 retransmission stream: its SSRC and payload type, and the track's own
    /// payload type its packets are unwrapped to. Nil when the publisher has none.
    public var retransmission: (ssrc: UInt32, payloadType: UInt8, originalPayloadType: UInt8)? {
        get { rtxSSRC == 0 ? nil : (rtxSSRC, rtxPayloadType, originalPayloadType) }
        set {
            rtxSSRC = newValue?.ssrc ?? 0
            rtxPayloadType = newValue?.payloadType ?? 0
            originalPayloadType = newValue?.originalPayloadType ?? 0
        }
    }
    private var rtxSSRC: UInt32 = 0
    private var rtxPayloadType: UInt8 = 0
    private var originalPayloadType: UInt8 = 0

    public init(
        id: UInt32, transportId: Int, ssrc: UInt32, isVideo: Bool, codec: String, clockRate: UInt32, audioLevelExtensionId: UInt8? = nil, rid: [UInt8]? = nil,
        ridExtensionId: UInt8? = nil
    ) {
        self.rid = rid
        self.ridExtensionId = ridExtensionId
        self.id = id
        self.transportId = transportId
        self.ssrc = ssrc
        self.isVideo = isVideo
        self.codec = codec
        self.clockRate = clockRate
        self.audioLevelExtensionId = audioLevelExtensionId
    }
}
