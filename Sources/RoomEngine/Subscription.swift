import Protocol

/// A member's subscription to another member's stream. It lasts until unsubscribed or until the
/// publisher leaves or turns invisible, so a republish keeps the subscriber's sequence numbers.
struct Subscription: Sendable, Hashable {
    var key: SubscriptionKey
    var mediaType: Int
    var audioTransportId: Int
    var videoTransportId: Int
    /// The video encoding the subscriber asked for; small falls back to big when not published.
    var videoStreamType: VideoStreamType = .big
    /// Sinks by kind, created the first time a track of that kind is available.
    var sinks: [TrackKind: SinkTrack] = [:]
    /// The source each sink is bound to, if any.
    var bindings: [TrackKind: UInt32] = [:]
    /// What the subscriber's downlink allows of the video, as the layer allocator last decided.
    var bandwidthLimit = VideoBandwidthLimit.none
    /// The video last delivered, for the before and after of `onSimulcastSubscribeFallback`;
    /// nil while none is.
    var deliveredVideo: DeliveredVideo?

    func wants(_ kind: TrackKind) -> Bool { mediaType & kind.mediaTypeBit != 0 }

    func transportId(for kind: TrackKind) -> Int { kind == .audio ? audioTransportId : videoTransportId }
}
