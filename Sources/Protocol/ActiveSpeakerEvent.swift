/// Data of `onActiveSpeaker`: the room's active speaker changed.
public struct ActiveSpeakerEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String

    public init(roomId: String, userId: String) {
        self.roomId = roomId
        self.userId = userId
    }
}
