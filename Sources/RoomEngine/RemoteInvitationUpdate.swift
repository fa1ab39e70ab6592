public import Protocol

/// An invitation between anchors on two cluster nodes reached a final state on one node's side
/// (accepted, refused, canceled, failed): the other node's half follows.
public struct RemoteInvitationUpdate: Sendable, Hashable, Codable {
    public var node: String
    public var inviteId: String
    public var state: InvitationState
    public var reason: String?
    public var payload: String?

    public init(node: String, inviteId: String, state: InvitationState, reason: String?, payload: String?) {
        self.node = node
        self.inviteId = inviteId
        self.state = state
        self.reason = reason
        self.payload = payload
    }
}
