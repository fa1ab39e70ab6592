import Protocol

/// One target room of a forward, while it is forwarded into (state Success).
struct ForwardTarget: Sendable, Hashable {
    var roomId: String
    /// The grants of the target token (minted for the target room and the forwarding user).
    var grants: TokenGrants
    var startedAt: EngineTime
    var firstKeyframeReported = false
    /// Set when the target room lives on another cluster node.
    var remote: RemoteTarget?
}
