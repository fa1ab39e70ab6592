/// One subscriber track the data plane should feed.
public struct MediaSinkSpec: Sendable, Hashable {
    public var id: UInt32
    public var transportId: Int
    public var outputSSRC: UInt32
    public var isVideo: Bool
    public var clockRate: UInt32

    public init(id: UInt32, transportId: Int, outputSSRC: UInt32, isVideo: Bool, clockRate: UInt32) {
        self.id = id
        self.transportId = transportId
        self.outputSSRC = outputSSRC
        self.isVideo = isVideo
        self.clockRate = clockRate
    }
}
