/// Data of `onForwardStreamEvent`.
public struct ForwardStreamEventEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var infos: [ForwardStreamEventInfo]

    public init(roomId: String, userId: String, infos: [ForwardStreamEventInfo]) {
        self.roomId = roomId
        self.userId = userId
        self.infos = infos
    }
}
