/// What `POST /admin/v1/rooms/{roomId}/users/{userId}/stop-forwarding` stopped. OpenAPI schema `StopForwardingResult`.
public struct AdminStopForwardingResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    /// Forward targets stopped.
    public var forwardsStopped: Int
    public var linksEnded: Int

    /// Creates the value from its fields.
    public init(roomId: String, userId: String, forwardsStopped: Int, linksEnded: Int) {
        self.roomId = roomId
        self.userId = userId
        self.forwardsStopped = forwardsStopped
        self.linksEnded = linksEnded
    }
}
