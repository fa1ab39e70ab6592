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

    /// The track a subscriber wanting `streamType` receives: small or medium falls back to big
    /// when the publisher does not send it.
    func track(of kind: TrackKind, preferring streamType: VideoStreamType) -> SourceTrack? {
        guard kind == .video, streamType != .big else { return track(of: kind) }
        return video(streamType) ?? track(of: kind)
    }

    /// The video track of one encoding, if published.
    func video(_ streamType: VideoStreamType) -> SourceTrack? {
        tracks.first { $0.kind == .video && $0.videoStreamType == streamType }
    }

    /// Whether the publisher sends a small video encoding besides the big one.
    var hasSmallVideo: Bool { video(.small) != nil }

    func description(of kind: TrackKind) -> TrackDescription? { descriptions.first { $0.kind == kind && ($0.videoStreamType ?? .big) == .big } }
}
