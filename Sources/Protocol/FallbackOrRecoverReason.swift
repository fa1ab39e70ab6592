/// Why a subscription's delivered video changed (``SimulcastSubscribeFallbackEvent``).
/// Volcengine RTC's `FallbackOrRecoverReason` numbers for the bandwidth cases; PKRelay adds the
/// app's and the publisher's.
public enum FallbackOrRecoverReason: Int, Sendable, Codable, Hashable, CaseIterable {
    case unknown = -1
    /// The subscriber's downlink could not carry the video it received: a smaller layer, or none.
    case subscribeFallbackByBandwidth = 0
    /// The downlink carries more again: a larger layer, or video again.
    case subscribeRecoverByBandwidth = 2
    /// The subscriber asked for another encoding (`setRemoteVideoStreamType`), changed its
    /// fallback option, or shows the video at another size (`setRemoteVideoConfig`).
    case subscriberRequest = 100
    /// The publisher changed what it sends: it started or stopped publishing its small encoding,
    /// or the encoding delivered stopped flowing (the subscriber moves to one that flows) or
    /// flows again.
    case publisherChange = 101
}
