import Protocol

/// What the control plane must do after an engine call: tell a session, change the media plane,
/// or tell the operator and the room server (webhooks, logs, metrics) what happened.
public enum EngineAction: Sendable, Hashable {
    case event(SessionID, ServerEvent)
    case media(MediaAction)
    case domain(DomainEvent)
}
