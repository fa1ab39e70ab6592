/// The first message each way on a node-to-node connection.
struct PeerHello: Sendable, Hashable, Codable {
    /// The sender's ``PeerMessage/version``.
    var version: Int
    var node: String
    /// The sender's process instance: a peer that comes back under the same node id as a new
    /// process lost its rooms.
    var instance: String
    /// The sender's end of the media pipe.
    var pipe: PipeOffer
}
