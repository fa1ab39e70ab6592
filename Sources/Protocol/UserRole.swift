/// A user's role in a room. Only anchors publish. The raw TRTC numbers are anchor 20, audience 21.
public enum UserRole: String, Sendable, Codable, Hashable {
    case anchor
    case audience
}
