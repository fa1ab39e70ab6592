/// A mirror this node keeps up on another node: where, and which local tracks it exports.
struct RemoteMirrorRecord: Sendable, Hashable {
    var target: RemoteTarget
    var trackIds: Set<UInt32>
}
