/// Parameters of `publishStream`.
public struct PublishStreamParams: Sendable, Codable, Hashable {
    public var roomId: String
    /// Default main.
    public var streamIndex: StreamIndex?
    public var transportId: Int
    public var tracks: [TrackDescription]
    public init(roomId: String, streamIndex: StreamIndex? = nil, transportId: Int, tracks: [TrackDescription]) {
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.transportId = transportId
        self.tracks = tracks
    }
}
