import Protocol

/// A forward target as the control plane hands it to the engine: the room, and the result of
/// verifying its token for that room and the forwarding user (publish grant required).
public struct ForwardTargetRequest: Sendable, Hashable {
    public var roomId: String
    public var grants: Result<TokenGrants, RelayError>

    public init(roomId: String, grants: Result<TokenGrants, RelayError>) {
        self.roomId = roomId
        self.grants = grants
    }
}
