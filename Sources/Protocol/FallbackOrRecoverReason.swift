/// Why a subscription's delivered video changed (``SimulcastSubscribeFallbackEvent``).
/// Volcengine RTC's `FallbackOrRecoverReason` numbers for the bandwidth cases; PKRelay adds the
/// app's and the publisher's.
public enum FallbackOrRecoverReason: Int, Sendable, Codable, Hashable, CaseIterable {
    case unknown = -1
    /// The subscriber's downlink could not carry the video it received: a smaller layer, or none.
    case subscribeFallbackByBandwidth = 0
    /// The downlink carries more again: a larger layer, or video again.
    case subscribeRecoverByBandwidth = 2
    /// The subscriber asked for another encoding (`setRemoteVideoStreamType`) or changed its
    /// fallback option.
    case subscriberRequest = 100
    /// The publisher started or stopped sending its small encoding.
    case publisherChange = 101
}
