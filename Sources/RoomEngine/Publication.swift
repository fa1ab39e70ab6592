import Protocol

/// One published stream of a member: its tracks and when media last arrived.
struct Publication: Sendable, Hashable {
    var streamIndex: StreamIndex
    var tracks: [SourceTrack]
    var descriptions: [TrackDescription]
    var lastMediaAt: EngineTime

    var mediaType: Int { tracks.reduce(0) { $0 | $1.kind.mediaTypeBit } }

    /// The audio track, or the big video track.
    func track(of kind: TrackKind) -> SourceTrack? { tracks.first { $0.kind == kind && $0.videoStreamType == .big } }

    /// The track a subscriber wanting `streamType` receives: small falls back to big.
    func track(of kind: TrackKind, preferring streamType: VideoStreamType) -> SourceTrack? {
        guard kind == .video, streamType == .small else { return track(of: kind) }
        return tracks.first { $0.kind == .video && $0.videoStreamType == .small } ?? track(of: kind)
    }

    /// Whether the publisher sends a small video encoding besides the big one.
    var hasSmallVideo: Bool { tracks.contains { $0.kind == .video && $0.videoStreamType == .small } }

    func description(of kind: TrackKind) -> TrackDescription? { descriptions.first { $0.kind == kind && ($0.videoStreamType ?? .big) == .big } }
}
