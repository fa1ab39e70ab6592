/// The state of a forward into one target room: Idle 0, Success 1, Failure 2, with an error (0 OK,
/// 1201 InvalidArgument, 1202 InvalidToken, 1203 Response, 1204 RemoteKicked, 1205 NotSupport).
public struct ForwardStreamStateInfo: Sendable, Codable, Hashable {
    public var roomId: String
    public var state: Int
    public var error: Int
    public var message: String?

    public init(roomId: String, state: Int, error: Int, message: String? = nil) {
        self.roomId = roomId
        self.state = state
        self.error = error
        self.message = message
    }
}
