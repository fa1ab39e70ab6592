/// One direction's network quality in `onNetworkQuality`, with the figures it was scored from.
public struct NetworkQualityInfo: Sendable, Codable, Hashable {
    /// The user the figures are about (the receiver itself for `local`).
    public var userId: String
    /// 0 Unknown, 1 Excellent, 2 Good, 3 Poor, 4 Bad, 5 Vbad, 6 Down.
    public var quality: Int
    /// Loss in the last window, 0-1 (the worst of receiver-reported loss, relay drops and NACK rate).
    public var lossRate: Double?
    /// Interarrival jitter in milliseconds.
    public var jitterMs: Double?
    public var roundTripTimeMs: Double?

    public init(userId: String, quality: Int, lossRate: Double? = nil, jitterMs: Double? = nil, roundTripTimeMs: Double? = nil) {
        self.userId = userId
        self.quality = quality
        self.lossRate = lossRate
        self.jitterMs = jitterMs
        self.roundTripTimeMs = roundTripTimeMs
    }
}
