/// Result of `getStats`: the caller's transports and tracks, refreshed about once a second.
public struct GetStatsResult: Sendable, Codable, Hashable {
    /// Unix milliseconds of the media snapshot these figures come from.
    public var generatedAt: Int64
    public var transports: [TransportStats]
    public var published: [PublishedTrackStats]
    public var subscribed: [SubscribedTrackStats]

    public init(generatedAt: Int64, transports: [TransportStats], published: [PublishedTrackStats], subscribed: [SubscribedTrackStats]) {
        self.generatedAt = generatedAt
        self.transports = transports
        self.published = published
        self.subscribed = subscribed
    }
}
