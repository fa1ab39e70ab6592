/// Parameters of `updateOtherRoomForwardMode`: hide the linked peer's audio, video or screen stream in the caller's own room only.
public struct UpdateOtherRoomForwardModeParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var userId: String
    public var muteAudio: Bool?
    public var muteVideo: Bool?
    public var muteSubStream: Bool?
    public var localRoomId: String?

    public init(roomId: String, userId: String, muteAudio: Bool? = nil, muteVideo: Bool? = nil, muteSubStream: Bool? = nil, localRoomId: String? = nil) {
        self.roomId = roomId
        self.userId = userId
        self.muteAudio = muteAudio
        self.muteVideo = muteVideo
        self.muteSubStream = muteSubStream
        self.localRoomId = localRoomId
    }
}
