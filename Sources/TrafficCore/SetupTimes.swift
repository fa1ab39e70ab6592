/// Forward and link setup: how long from the request until the forwarded anchor's first
/// keyframe reached an audience member of the target room.
public struct SetupTimes: Sendable, Codable, Hashable {
    /// `link` (connectOtherRoom) or `forward` (startForwardStreamToRooms).
    public var via: String
    /// Setups measured.
    public var latency: LatencySummary
    /// Setups whose first keyframe did not arrive within the watch time (10 s).
    public var timedOut: UInt64

    public init(via: String, latency: LatencySummary, timedOut: UInt64) {
        self.via = via
        self.latency = latency
        self.timedOut = timedOut
    }
}
