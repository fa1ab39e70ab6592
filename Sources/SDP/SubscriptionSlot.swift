/// One media section of a subscription: the track it carries or last carried.
public struct SubscriptionSlot: Sendable, Hashable {
    /// The track; for an inactive slot, the last track it carried.
    public var track: OutgoingTrackDescription
    /// Whether the slot carries its track now. An inactive slot stays in the offer (inactive,
    /// still bundled) so that later sections keep their position and its mid can be reused.
    public var isActive: Bool

    /// Creates a slot.
    public init(track: OutgoingTrackDescription, isActive: Bool) {
        self.track = track
        self.isActive = isActive
    }

    /// The slot's mid.
    public var mid: String { track.mid }

    /// The slot's media kind, fixed for its life.
    public var kind: SDPMediaKind { track.kind }
}
