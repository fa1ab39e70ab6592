public import Protocol

/// One forward target that started (success), failed, or stopped (idle).
public struct ForwardStateChange: Sendable, Hashable {
    public var sourceRoomId: String
    public var userId: String
    public var targetRoomId: String
    public var state: ForwardState
    /// 0, or the 1201-1205 error of a failure.
    public var error: Int
    public var message: String?
    /// When the target stopped because the forwarding user left its room (so that no one asked
    /// for the stop): why the user left.
    public var departure: DepartureReason?

    public init(
        sourceRoomId: String, userId: String, targetRoomId: String, state: ForwardState, error: Int = 0, message: String? = nil,
        departure: DepartureReason? = nil
    ) {
        self.sourceRoomId = sourceRoomId
        self.userId = userId
        self.targetRoomId = targetRoomId
        self.state = state
        self.error = error
        self.message = message
        self.departure = departure
    }
}
