/// The state of one forward target (Volcengine ForwardStreamState numbers).
public enum ForwardState: Int, Sendable, Codable, Hashable {
    case idle = 0
    case success = 1
    case failure = 2
}
