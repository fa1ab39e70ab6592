/// Parameters of `invite`: invite anchor `userId` of room `roomId` to a PK. With `autoLink` the link starts when the invitee accepts.
public struct InviteParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var localRoomId: String?
    public var payload: String?
    public var timeoutSeconds: Int?
    public var autoLink: Bool?

    public init(roomId: String, userId: String, localRoomId: String? = nil, payload: String? = nil, timeoutSeconds: Int? = nil, autoLink: Bool? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.localRoomId = localRoomId
        self.payload = payload
        self.timeoutSeconds = timeoutSeconds
        self.autoLink = autoLink
    }
}
