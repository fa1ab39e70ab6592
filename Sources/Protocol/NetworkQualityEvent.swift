/// Data of `onNetworkQuality`, every 2 s per room: the member's own quality and that of each
/// remote user it receives.
public struct NetworkQualityEvent: Sendable, Codable, Hashable {
    public var roomId: String
    /// The uplink when the member publishes, else its downlink.
    public var local: NetworkQualityInfo
    /// Per subscribed remote user: the worse of that user's uplink and this member's downlink from the relay.
    public var remotes: [NetworkQualityInfo]

    public init(roomId: String, local: NetworkQualityInfo, remotes: [NetworkQualityInfo]) {
        self.roomId = roomId
        self.local = local
        self.remotes = remotes
    }
}
