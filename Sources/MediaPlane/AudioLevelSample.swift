/// The audio level of one source over a short window, from its RFC 6464 header extension.
public struct AudioLevelSample: Sendable, Hashable {
    /// The loudest level seen, in -dBov (0 loudest, 127 silence).
    public var level: UInt8
    /// Whether any packet had the voice-activity flag.
    public var voiceActivity: Bool

    public init(level: UInt8, voiceActivity: Bool) {
        self.level = level
        self.voiceActivity = voiceActivity
    }

    /// The loudest of two windows.
    public func merged(with other: AudioLevelSample) -> AudioLevelSample {
        AudioLevelSample(level: min(level, other.level), voiceActivity: voiceActivity || other.voiceActivity)
    }
}
