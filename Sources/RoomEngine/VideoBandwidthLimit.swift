/// What a subscriber's downlink allows of one subscription's video, as the layer allocator last
/// decided: no less than the subscriber asked for, at most the medium or the small encoding, or
/// no video. Ordered from the least limited.
public enum VideoBandwidthLimit: Int, Sendable, Hashable, Comparable, CaseIterable {
    case none = 0
    case medium = 1
    case small = 2
    case paused = 3

    public static func < (lhs: VideoBandwidthLimit, rhs: VideoBandwidthLimit) -> Bool { lhs.rawValue < rhs.rawValue }
}
