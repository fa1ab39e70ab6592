/// What the data plane saw of one published track.
public struct SourceReport: Sendable, Hashable {
    public var packets: UInt64 = 0
    public var bytes: UInt64 = 0
    /// Milliseconds since the last packet (or since the source was added, if none arrived).
    public var idleMs: Int64 = 0
    public var packetsLost: Int64 = 0
    /// Interarrival jitter in milliseconds.
    public var jitterMs: Double = 0
    public var keyframes: UInt64 = 0
    public var keyframeRequestsSent: UInt64 = 0
    /// The SSRC packets arrive with: as published, or learnt from the first packet of a
    /// simulcast layer announced by rid (0 until then).
    public var ssrc: UInt32 = 0
    /// Bits per second received over the larger of the data plane's last two report windows
    /// (about a second each): what forwarding this track costs, keyframes included.
    public var bitrateBps: Int = 0
    /// The coded size the last keyframe stated, in pixels (0 while unknown: no keyframe yet, or
    /// a codec whose keyframes are not read for it).
    public var frameWidth = 0
    public var frameHeight = 0
    public init() {}
}
