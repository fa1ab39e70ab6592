import Protocol

/// The tracks a receiving WebRTC transport should carry now, in mid order: the control plane
/// offers them to the client (renegotiating once per change, not once per track).
public struct SubscriberTracks: Sendable, Hashable {
    public var transportId: Int
    public var session: SessionID
    public var tracks: [OfferedTrack]
}
