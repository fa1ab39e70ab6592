public import Protocol

/// One stream of a user as another cluster node should show it: its tracks carry the SSRC they
/// cross the media pipe with (`ssrc`), and the publisher's own track descriptions.
public struct RemotePublication: Sendable, Hashable, Codable {
    public var streamIndex: StreamIndex
    public var tracks: [RemoteTrack]
    public var descriptions: [TrackDescription]

    public init(streamIndex: StreamIndex, tracks: [RemoteTrack], descriptions: [TrackDescription]) {
        self.streamIndex = streamIndex
        self.tracks = tracks
        self.descriptions = descriptions
    }
}
