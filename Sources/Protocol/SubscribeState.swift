/// The result state of a subscription (Volcengine's numbers).
public enum SubscribeState: Int, Sendable, Codable, Hashable {
    case success = 0
    case failedNotInRoom = 1
    case failedStreamNotFound = 2
    case failedOverLimit = 3
}
