/// This node's end of the media pipe to one peer: the transport opened for one connection
/// (`generation`); it closes with that connection.
struct PeerPipe: Sendable, Hashable {
    var generation: UInt64
    var transportId: Int
}
