public import Protocol

/// What the control plane must do after an engine call: tell a session, change the media plane,
/// renegotiate a subscriber's WebRTC transport, tell another cluster node, or tell the operator
/// and the room server (webhooks, logs, metrics) what happened. The engine is the only author of
/// these: the control plane applies each one as it comes, in order, and decides nothing itself.
public enum EngineAction: Sendable, Hashable {
    case event(SessionID, ServerEvent)
    case media(MediaAction)
    case domain(DomainEvent)
    /// Tell another cluster node something about the rooms the two share.
    case notify(NodeNotice)
    /// A receiving WebRTC transport's tracks changed: offer the client the new set.
    case subscriberTracks(SubscriberTracks)
}
