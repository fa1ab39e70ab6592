/// What a mirror of a user in a target room should look like: which room its streams come from
/// and which of them are hidden.
struct MirrorSpec: Sendable, Hashable {
    var sourceRoomId: String
    var session: SessionID
    var grants: TokenGrants
    /// bit 0 audio, bit 1 video, bit 2 screen stream.
    var muteMask: Int
}
