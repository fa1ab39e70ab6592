import RoomEngine

/// The relay core's state per cluster peer, in one value: this node's end of the media pipe to
/// each peer (one per node-to-node connection, named by the connection's generation), the
/// process instance each peer last said hello with, and the mirrors a peer showed for links
/// this node asked for and has not heard answered yet.
struct PeerState: Sendable {
    /// A link this node asked a peer for: the caller's room here, and the peer anchor there.
    struct LinkAsked: Hashable, Sendable {
        var node: String
        var callerRoomId: String
        var peerUserId: String
    }

    private var pipes: [String: PeerPipe] = [:]
    private var instances: [String: String] = [:]
    private var linksAsked: [LinkAsked: [NodeNotice]] = [:]

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

    // MARK: Links asked across nodes

    /// A link is asked of `link.node`: the peer's mirror it shows before its answer arrives is
    /// held (see ``hold(_:from:)``).
    mutating func asking(_ link: LinkAsked) { linksAsked[link] = linksAsked[link] ?? [] }

    /// Holds `notice` from `node` when it shows, in a room here, the anchor of a link this node
    /// asked for and awaits the answer to; false when it is not held.
    mutating func hold(_ notice: NodeNotice, from node: String) -> Bool {
        guard case .mirror(let update) = notice else { return false }
        let link = LinkAsked(node: node, callerRoomId: update.targetRoomId, peerUserId: update.userId)
        guard linksAsked[link] != nil else { return false }
        linksAsked[link]!.append(notice)
        return true
    }

    /// The answer came: the notices held for `link`, in order.
    mutating func answered(_ link: LinkAsked) -> [NodeNotice] { linksAsked.removeValue(forKey: link) ?? [] }
}
