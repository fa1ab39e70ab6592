/// Which encoding of a simulcast publisher's video: the big (full-quality) stream, the small
/// (low-resolution, low-bitrate) one, or the medium one between them when the publisher sends
/// three. Encoded as TRTC's numbers (Big 0, Small 1) and PKRelay's own for the third (Medium 2).
public enum VideoStreamType: Int, Sendable, Codable, Hashable, CaseIterable {
    case big = 0
    case small = 1
    case medium = 2

    /// The lower-case name used in logs and metrics.
    public var name: String {
        switch self {
        case .big: "big"
        case .small: "small"
        case .medium: "medium"
        }
    }

    /// Orders the encodings by quality: small 0, medium 1, big 2.
    public var qualityRank: Int {
        switch self {
        case .small: 0
        case .medium: 1
        case .big: 2
        }
    }

    /// The lower-quality of two encodings.
    public static func lower(_ a: VideoStreamType, _ b: VideoStreamType) -> VideoStreamType { a.qualityRank <= b.qualityRank ? a : b }
}
