/// One forward event: Disconnected 0, Connected 1, Interrupt 2, DstRoomUpdated 3, UnexpectedAPICall 4; an empty roomId means every target.
public struct ForwardStreamEventInfo: Sendable, Codable, Hashable {
    public var roomId: String
    public var event: Int

    public init(roomId: String, event: Int) {
        self.roomId = roomId
        self.event = event
    }
}
