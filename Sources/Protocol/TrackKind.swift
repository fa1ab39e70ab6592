/// The media kind of one track.
public enum TrackKind: String, Sendable, Codable, Hashable {
    case audio
    case video

    /// The bit of this kind in a ``MediaType`` mask.
    public var mediaTypeBit: Int { self == .audio ? MediaType.audio : MediaType.video }
}
