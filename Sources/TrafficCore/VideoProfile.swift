/// The video an anchor publishes: resolution class, frame rate, bitrate and keyframe spacing.
/// The defaults follow the live-showroom settings (960x540, 15 fps, 1300 kbps).
public struct VideoProfile: Sendable, Codable, Hashable {
    public var width: Int = 960
    public var height: Int = 540
    public var fps: Int = 15
    public var kbps: Int = 1300
    /// Seconds between periodic keyframes (a PLI or FIR forces one at once).
    public var keyframeIntervalSeconds: Double = 3
    /// The largest RTP payload per packet, VP8 descriptor included.
    public var maxPayloadBytes: Int = 1200

    public init() {}

    /// The resolution class as written in reports, e.g. `960x540`.
    public var resolution: String { "\(width)x\(height)" }

    /// Frames between periodic keyframes (at least 1).
    public var keyframeIntervalFrames: Int { max(1, Int((keyframeIntervalSeconds * Double(fps)).rounded())) }

    /// Sizes in bytes of delta frames and keyframes, chosen so that the average over a keyframe
    /// interval meets the bitrate with keyframes four times as large as delta frames.
    public var frameSizes: (delta: Int, key: Int) {
        let average = Double(kbps) * 1000 / 8 / Double(max(1, fps))
        let frames = Double(keyframeIntervalFrames)
        let delta = max(64, Int(average * frames / (frames + 3)))
        return (delta, delta * 4)
    }
}
