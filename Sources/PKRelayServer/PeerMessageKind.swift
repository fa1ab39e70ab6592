/// What a message between cluster nodes is (see docs/CLUSTER.md, "Between nodes").
enum PeerMessageKind: String, Sendable, Codable {
    /// First message each way on a connection: who is speaking, and its end of the media pipe.
    case hello
    /// Once a second each way; a connection silent for ``ClusterPeers/silenceLimit`` is dropped.
    case ping
    /// May this user forward into this room here? Answered by ``verified``.
    case verify
    case verified
    /// Show (or update) a user's mirror in a room of the receiving node.
    case mirror
    /// Remove a user's mirror from a room of the receiving node.
    case unmirror
    /// A mirror ended on the receiving node's target side (or could not be shown).
    case mirrorEnded
    /// Link the sender's anchor with an anchor of the receiving node. Answered by ``linked``.
    case link
    case linked
    /// A PK link across the two nodes ended on the sender's side.
    case linkEnded
    /// A room message for a linked room on the receiving node, or a user message for one of
    /// its users.
    case message
    /// An invitation from the sender's anchor to an anchor of the receiving node. Answered by
    /// ``invited`` (taken, refused as busy, or an error).
    case invite
    case invited
    /// An invitation across the two nodes ended on the sender's side.
    case invitation
    /// The sender wants (or no longer wants) the track it receives on pipe SSRC `ssrc`.
    case demand
}
