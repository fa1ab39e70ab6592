/// Data of `onInvitationStateChanged`, sent to both sides. States: Idle 0, SentToRemote 1,
/// ReceivedByRemote 2, Accepted 3, Refused 4, Canceled 5, Failure 6. `side` is `caller` or
/// `callee`; `reason` says why (busy, active, timeout, peerLeft).
public struct InvitationStateChangedEvent: Sendable, Codable, Hashable {
    public var inviteId: String
    public var side: String
    public var state: Int
    public var roomId: String
    public var peerRoomId: String
    public var peerUserId: String
    public var reason: String?
    public var payload: String?

    public init(inviteId: String, side: String, state: Int, roomId: String, peerRoomId: String, peerUserId: String, reason: String?, payload: String?) {
        self.inviteId = inviteId
        self.side = side
        self.state = state
        self.roomId = roomId
        self.peerRoomId = peerRoomId
        self.peerUserId = peerUserId
        self.reason = reason
        self.payload = payload
    }
}
