/// Which encoding of a dual-stream publisher's video: the big (full-quality) stream or the small
/// (low-resolution, low-bitrate) one. Encoded as TRTC's numbers: Big 0, Small 1.
public enum VideoStreamType: Int, Sendable, Codable, Hashable, CaseIterable {
    case big = 0
    case small = 1

    /// The lower-case name used in logs and metrics.
    public var name: String { self == .big ? "big" : "small" }
}
