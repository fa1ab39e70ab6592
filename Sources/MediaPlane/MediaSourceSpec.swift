/// A published track the data plane should accept.
public struct MediaSourceSpec: Sendable, Hashable {
    public var id: UInt32
    public var transportId: Int
    public var ssrc: UInt32
    public var isVideo: Bool
    /// Codec name (e.g. VP8, H264, opus).
    public var codec: String
    public var clockRate: UInt32

    public init(id: UInt32, transportId: Int, ssrc: UInt32, isVideo: Bool, codec: String, clockRate: UInt32) {
        self.id = id
        self.transportId = transportId
        self.ssrc = ssrc
        self.isVideo = isVideo
        self.codec = codec
        self.clockRate = clockRate
    }
}
