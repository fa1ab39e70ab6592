/// What a subscriber's downlink allows of one subscription's video, as the layer allocator last
/// decided: no less than the subscriber asked for, at most the small encoding, or no video.
public enum VideoBandwidthLimit: Int, Sendable, Hashable, Comparable, CaseIterable {
    case none = 0
    case small = 1
    case paused = 2

    public static func < (lhs: VideoBandwidthLimit, rhs: VideoBandwidthLimit) -> Bool { lhs.rawValue < rhs.rawValue }
}
