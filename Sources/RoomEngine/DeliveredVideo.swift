import Protocol

/// The video a subscription delivers: which encoding, and whether any (not while paused).
struct DeliveredVideo: Sendable, Hashable {
    var streamType: VideoStreamType
    var enabled: Bool
}
