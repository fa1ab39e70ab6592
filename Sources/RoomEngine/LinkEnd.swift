/// One anchor of a PK link.
struct LinkEnd: Sendable, Hashable {
    var roomId: String
    var userId: String
    var session: SessionID
    /// The peer's streams hidden in this anchor's room: bit 0 audio, bit 1 video, bit 2 screen.
    var muteMask = 0
    var firstKeyframeReported = false
}
