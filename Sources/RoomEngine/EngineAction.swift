import Protocol

/// What the control plane must do after an engine call: tell a session, change the media plane,
/// or tell the operator and the room server (webhooks, logs, metrics) what happened.
public enum EngineAction: Sendable, Hashable {
    case event(SessionID, ServerEvent)
    case media(MediaAction)
    case domain(DomainEvent)
    /// Tell another cluster node how a user's mirror there should look (this node is the source).
    case remoteMirror(RemoteMirrorUpdate)
    /// Tell another cluster node that its user's mirror here ended (this node is the target).
    case remoteMirrorEnded(RemoteMirrorEnd)
    /// Tell another cluster node that a PK link with its anchor ended here.
    case remoteLinkEnded(RemoteLinkEnd)
    /// Deliver a message to members of a room on another cluster node.
    case remoteMessage(RemoteMessage)
    /// Tell another cluster node that an invitation with its anchor ended here.
    case remoteInvitation(RemoteInvitationUpdate)
}
