/// Data of `onInvitationReceived`, sent to the invitee.
public struct InvitationReceivedEvent: Sendable, Codable, Hashable {
    public var inviteId: String
    public var roomId: String
    public var fromRoomId: String
    public var fromUserId: String
    public var payload: String?
    public var timeoutSeconds: Int
    public var autoLink: Bool

    public init(inviteId: String, roomId: String, fromRoomId: String, fromUserId: String, payload: String?, timeoutSeconds: Int, autoLink: Bool) {
        self.inviteId = inviteId
        self.roomId = roomId
        self.fromRoomId = fromRoomId
        self.fromUserId = fromUserId
        self.payload = payload
        self.timeoutSeconds = timeoutSeconds
        self.autoLink = autoLink
    }
}
