/// Result of the forward calls: the state of every target the call changed.
public struct ForwardStreamResult: Sendable, Codable, Hashable {
    public var roomId: String
    public var infos: [ForwardStreamStateInfo]

    public init(roomId: String, infos: [ForwardStreamStateInfo]) {
        self.roomId = roomId
        self.infos = infos
    }
}
