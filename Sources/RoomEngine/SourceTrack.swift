public import Protocol

/// A published track as the media plane sees it: which transport and SSRC it arrives with.
public struct SourceTrack: Sendable, Hashable {
    /// Relay-wide id of this published track; new for every publication.
    public var id: UInt32
    public var transportId: Int
    public var ssrc: UInt32
    public var kind: TrackKind
    public var codec: String
    public var clockRate: Int
    public var payloadType: Int
    /// The header-extension id carrying the RFC 6464 audio level, when the publisher named one.
    public var audioLevelExtensionId: UInt8?
    /// Which encoding of the publisher's video this is; always big for audio.
    public var videoStreamType: VideoStreamType
    /// The simulcast RTP stream id, for a layer whose SSRC the media plane learns (ssrc 0), and
    /// the header-extension id that carries it in the publisher's packets.
    public var rid: String?
    public var ridExtensionId: UInt8?
    /// The RFC 4588 retransmission stream's SSRC and payload type, when the publisher has one.
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: Int?

    public init(
        id: UInt32, transportId: Int, ssrc: UInt32, kind: TrackKind, codec: String, clockRate: Int, payloadType: Int, audioLevelExtensionId: UInt8? = nil,
        videoStreamType: VideoStreamType = .big
    ) {
        self.id = id
        self.transportId = transportId
        self.ssrc = ssrc
        self.kind = kind
        self.codec = codec
        self.clockRate = clockRate
        self.payloadType = payloadType
        self.audioLevelExtensionId = audioLevelExtensionId
        self.videoStreamType = videoStreamType
    }
}
