/// A forward target into or out of a room. OpenAPI schema `Forward`.
public struct AdminForward: Sendable, Codable, Hashable {
    /// Out of, or into, the room asked about.
    public enum Direction: String, Sendable, Codable, Hashable {
        case out
        case `in`
    }

    /// Whether media flows.
    public enum State: String, Sendable, Codable, Hashable {
        case forwarding
        case paused
    }

    /// The room the forwarding user is in.
    public var roomId: String
    public var userId: String
    public var targetRoomId: String
    /// Out of or into the room asked about.
    public var direction: AdminForward.Direction
    public var state: AdminForward.State
    /// Unix milliseconds.
    public var startedAt: Int64
    public var firstKeyframeDelivered: Bool

    /// Creates the value from its fields.
    public init(
        roomId: String, userId: String, targetRoomId: String, direction: AdminForward.Direction, state: AdminForward.State, startedAt: Int64,
        firstKeyframeDelivered: Bool
    ) {
        self.roomId = roomId
        self.userId = userId
        self.targetRoomId = targetRoomId
        self.direction = direction
        self.state = state
        self.startedAt = startedAt
        self.firstKeyframeDelivered = firstKeyframeDelivered
    }
}
