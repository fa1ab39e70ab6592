/// One user's audio level in `onRemoteAudioPropertiesReport`.
public struct SpeakerVolume: Sendable, Codable, Hashable {
    public var userId: String
    public var streamIndex: StreamIndex
    /// The loudest RFC 6464 level seen in the interval, in -dBov: 0 is the loudest, 127 silence.
    public var level: Int
    /// The same level as a linear volume 0-255: `round(255 * 10^(-level/20))`.
    public var linearVolume: Int
    /// Whether any packet of the interval had the RFC 6464 voice-activity flag set.
    public var voiceActivity: Bool

    public init(userId: String, streamIndex: StreamIndex, level: Int, linearVolume: Int, voiceActivity: Bool) {
        self.userId = userId
        self.streamIndex = streamIndex
        self.level = level
        self.linearVolume = linearVolume
        self.voiceActivity = voiceActivity
    }
}
