/// One subscriber track the data plane should feed.
public struct MediaSinkSpec: Sendable, Hashable {
    public var id: UInt32
    public var transportId: Int
    public var outputSSRC: UInt32
    public var isVideo: Bool
    public var clockRate: UInt32
    /// Whether a bind within the publisher's hold after a keyframe starts the sink from that
    /// keyframe, replayed, rather than asking for a new one. Set for WebRTC subscribers, whose
    /// binds wait for their answers and so come one by one, after the first one's keyframe.
    public var startsFromRecentKeyframe: Bool

    public init(id: UInt32, transportId: Int, outputSSRC: UInt32, isVideo: Bool, clockRate: UInt32, startsFromRecentKeyframe: Bool = false) {
        self.id = id
        self.transportId = transportId
        self.outputSSRC = outputSSRC
        self.isVideo = isVideo
        self.clockRate = clockRate
        self.startsFromRecentKeyframe = startsFromRecentKeyframe
    }
}
