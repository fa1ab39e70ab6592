import Protocol

/// What the control plane must do after an engine call: tell a session, or change the media plane.
public enum EngineAction: Sendable, Hashable {
    case event(SessionID, ServerEvent)
    case media(MediaAction)
}
