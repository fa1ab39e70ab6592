/// Data of `onRemoteAudioPropertiesReport`: the loudest users of a room, loudest first.
public struct AudioPropertiesReportEvent: Sendable, Codable, Hashable {
    public var roomId: String
    public var speakers: [SpeakerVolume]

    public init(roomId: String, speakers: [SpeakerVolume]) {
        self.roomId = roomId
        self.speakers = speakers
    }
}
