/// Whether this node wants the packets of a track another node sends it over the media pipe:
/// wanted while a subscriber here is bound to it, so nothing crosses that nobody watches.
public struct PipeDemand: Sendable, Hashable, Codable {
    /// The node that sends the track.
    public var node: String
    /// The track's SSRC on the pipe.
    public var ssrc: UInt32
    public var wanted: Bool
}
