public import Protocol

/// A track crossing the media pipe between two nodes, as its receiving node needs it.
public struct RemoteTrack: Sendable, Hashable, Codable {
    /// The SSRC the track has on the pipe (chosen by the sending node, unique on that pipe).
    public var ssrc: UInt32
    public var kind: TrackKind
    public var codec: String
    public var clockRate: Int
    public var payloadType: Int
    public var audioLevelExtensionId: UInt8?
    public var videoStreamType: VideoStreamType

    public init(ssrc: UInt32, kind: TrackKind, codec: String, clockRate: Int, payloadType: Int, audioLevelExtensionId: UInt8?, videoStreamType: VideoStreamType)
    {
        self.ssrc = ssrc
        self.kind = kind
        self.codec = codec
        self.clockRate = clockRate
        self.payloadType = payloadType
        self.audioLevelExtensionId = audioLevelExtensionId
        self.videoStreamType = videoStreamType
    }
}
