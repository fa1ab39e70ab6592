/// How a subscriber ranks one remote user's video when its downlink cannot carry everything it
/// subscribed to: higher priorities keep their layer longest. Volcengine RTC's
/// `RemoteUserPriority`, with its numbers.
public enum RemoteUserPriority: Int, Sendable, Codable, Hashable, CaseIterable, Comparable {
    case low = 0
    case medium = 100
    case high = 200

    public static func < (lhs: RemoteUserPriority, rhs: RemoteUserPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
