/// Parameters of `publishStream`.
public struct PublishStreamParams: Sendable, Codable, Hashable {
    public var roomId: String
    /// Default main.
    public var streamIndex: StreamIndex?
    public var transportId: Int
    /// The tracks, on SRTP transports. Empty (or absent) when `sdp` describes them.
    public var tracks: [TrackDescription]
    /// WebRTC transports: the client's SDP offer; the tracks are read from it.
    public var sdp: String?

    public init(roomId: String, streamIndex: StreamIndex? = nil, transportId: Int, tracks: [TrackDescription], sdp: String? = nil) {
        self.roomId = roomId
        self.streamIndex = streamIndex
        self.transportId = transportId
        self.tracks = tracks
        self.sdp = sdp
    }

    private enum CodingKeys: String, CodingKey {
        case roomId, streamIndex, transportId, tracks, sdp
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        roomId = try container.decode(String.self, forKey: .roomId)
        streamIndex = try container.decodeIfPresent(StreamIndex.self, forKey: .streamIndex)
        transportId = try container.decode(Int.self, forKey: .transportId)
        sdp = try container.decodeIfPresent(String.self, forKey: .sdp)
        // With an SDP offer the tracks come from it; without one they are required.
        if sdp != nil {
            tracks = try container.decodeIfPresent([TrackDescription].self, forKey: .tracks) ?? []
        } else {
            tracks = try container.decode([TrackDescription].self, forKey: .tracks)
        }
    }
}
