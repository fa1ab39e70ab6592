/// Parameters of `setSubscribeFallbackOption`: what the relay may do to this connection's
/// subscriptions when their downlink cannot carry them. Applies to every room the connection is in,
/// now and later.
public struct SetSubscribeFallbackOptionParams: Sendable, Codable, Hashable {
    public var option: SubscribeFallbackOption

    public init(option: SubscribeFallbackOption) {
        self.option = option
    }
}
