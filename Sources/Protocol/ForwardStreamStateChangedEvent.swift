/// Data of `onForwardStreamStateChanged`: only the targets whose state changed.
public struct ForwardStreamStateChangedEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var infos: [ForwardStreamStateInfo]

    public init(roomId: String, userId: String, infos: [ForwardStreamStateInfo]) {
        self.roomId = roomId
        self.userId = userId
        self.infos = infos
    }
}
