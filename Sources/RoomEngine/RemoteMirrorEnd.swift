public import Protocol

/// A mirror of a user from another node ended on the target node's side (kicked, room dismissed,
/// token expired, a real user with its userId joined): the target node tells the source node,
/// whose forward target ends with `forwardError`.
public struct RemoteMirrorEnd: Sendable, Hashable, Codable {
    public var node: String
    public var sourceRoomId: String
    public var targetRoomId: String
    public var userId: String
    public var forwardError: ErrorCode
    public var leaveReason: LeaveReason

    public init(node: String, sourceRoomId: String, targetRoomId: String, userId: String, forwardError: ErrorCode, leaveReason: LeaveReason) {
        self.node = node
        self.sourceRoomId = sourceRoomId
        self.targetRoomId = targetRoomId
        self.userId = userId
        self.forwardError = forwardError
        self.leaveReason = leaveReason
    }
}
