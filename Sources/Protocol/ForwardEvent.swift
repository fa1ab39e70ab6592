/// Forward events (Volcengine ForwardStreamEvent numbers).
public enum ForwardEvent: Int, Sendable, Codable, Hashable {
    /// Forwarding is suspended: the forwarding user became invisible.
    case disconnected = 0
    /// Forwarding resumed after a suspension.
    case connected = 1
    /// A real user with the same userId joined the target room; that forward ended (1204).
    case interrupt = 2
    /// The target list changed (update, or a target ended).
    case dstRoomUpdated = 3
    /// A forward call came in the wrong state (e.g. update before start).
    case unexpectedAPICall = 4
}
