import Protocol

/// One published stream of a member: its tracks and when media last arrived.
struct Publication: Sendable, Hashable {
    var streamIndex: StreamIndex
    var tracks: [SourceTrack]
    var descriptions: [TrackDescription]
    var lastMediaAt: EngineTime

    var mediaType: Int { tracks.reduce(0) { $0 | $1.kind.mediaTypeBit } }

    func track(of kind: TrackKind) -> SourceTrack? { tracks.first { $0.kind == kind } }

    func description(of kind: TrackKind) -> TrackDescription? { descriptions.first { $0.kind == kind } }
}
