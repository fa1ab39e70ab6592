/// What the relay may do to a subscriber's video when its downlink cannot carry what it asked
/// for. Volcengine RTC's `SubscribeFallbackOption` and Agora's `StreamFallbackOptions`, with
/// their numbers.
public enum SubscribeFallbackOption: Int, Sendable, Codable, Hashable, CaseIterable {
    /// Never: the subscriber keeps the encoding it asked for, whatever its link.
    case disabled = 0
    /// Down to the small encoding of a dual-stream (simulcast) publisher, and back up.
    case videoStreamLow = 1
    /// Down to the small encoding, then to audio only (video paused), and back up.
    case audioOnly = 2

    /// PKRelay's default, as Agora's: a viewer on a weak link gets the small encoding rather
    /// than a frozen big one. (Volcengine RTC's default is `disabled`.)
    public static let `default` = SubscribeFallbackOption.videoStreamLow
}
