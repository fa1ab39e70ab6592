public import Protocol

/// A forward target as the control plane hands it to the engine: the room, and the result of
/// verifying its token for that room and the forwarding user (publish grant required).
public struct ForwardTargetRequest: Sendable, Hashable {
    public var roomId: String
    public var grants: Result<TokenGrants, RelayError>
    /// Set when the room lives on another cluster node, which verified the token (`grants`).
    public var remote: RemoteTarget?

    public init(roomId: String, grants: Result<TokenGrants, RelayError>, remote: RemoteTarget? = nil) {
        self.roomId = roomId
        self.grants = grants
        self.remote = remote
    }
}
