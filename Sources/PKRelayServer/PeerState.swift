/// The relay core's state per cluster peer, in one value: this node's end of the media pipe to
/// each peer (one per node-to-node connection, named by the connection's generation), and the
/// process instance each peer last said hello with.
struct PeerState: Sendable {
    private var pipes: [String: PeerPipe] = [:]
    private var instances: [String: String] = [:]

    /// The pipe to `node`, while a connection to it is up or being set up.
    subscript(node: String) -> PeerPipe? { pipes[node] }

    /// Connection `generation` to `node` opened `transportId` as its pipe (an older connection's
    /// pipe was lost first).
    mutating func open(node: String, generation: UInt64, transportId: Int) {
        pipes[node] = PeerPipe(generation: generation, transportId: transportId)
    }

    /// Connection `generation` to `node` is through its hellos with a peer process `instance`:
    /// its pipe, and whether the peer is a new process under a known id (which lost its rooms);
    /// nil when `generation` is not the connection whose pipe stands.
    mutating func ready(node: String, generation: UInt64, instance: String) -> (pipe: PeerPipe, restarted: Bool)? {
        guard let pipe = pipes[node], pipe.generation == generation else { return nil }
        let restarted = instances[node].map { $0 != instance } ?? false
        instances[node] = instance
        return (pipe, restarted)
    }

    /// Connection `generation` to `node` ended: its pipe, when it is the one that stood.
    mutating func lose(node: String, generation: UInt64) -> PeerPipe? {
        guard let pipe = pipes[node], pipe.generation == generation else { return nil }
        pipes[node] = nil
        return pipe
    }

    /// `node` is gone: a connection from it later is a new beginning.
    mutating func forget(node: String) {
        instances[node] = nil
    }
}
