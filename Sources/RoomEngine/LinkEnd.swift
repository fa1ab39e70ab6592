/// One anchor of a PK link.
struct LinkEnd: Sendable, Hashable {
    var roomId: String
    var userId: String
    var session: SessionID
    /// The peer's streams hidden in this anchor's room: bit 0 audio, bit 1 video, bit 2 screen.
    var muteMask = 0
    var firstKeyframeReported = false
    /// Set for the end of a link across nodes whose anchor is on another node: that node and
    /// the pipe to it. Such an end has no session here.
    var remote: RemoteTarget?
}
