import TrafficCore

/// A publishing socket's encoder state: sequence numbers, timestamps and the send schedule.
struct PublisherState {
    let spec: PublisherSpec
    var videoSequence = UInt16.random(in: 0...UInt16.max)
    var videoTimestamp = UInt32.random(in: 0...UInt32.max)
    var audioSequence = UInt16.random(in: 0...UInt16.max)
    var audioTimestamp = UInt32.random(in: 0...UInt32.max)
    var nextVideo: Int64
    var nextAudio: Int64
    let videoInterval: Int64
    let audioInterval: Int64
    var framesSinceKeyframe = Int.max
    /// Set by a PLI or FIR: the next frame is a keyframe.
    var keyframeRequested = true
    var frameIndex: UInt32 = 0
    /// Paced publishers (`--pace-publishers`): frames waiting for the pacer, oldest first, and
    /// when its next packet may go.
    var pendingFrames: [PendingFrame] = []
    var pacedNextUs: Int64 = 0

    init(spec: PublisherSpec, now: Int64) {
        self.spec = spec
        videoInterval = 1_000_000 / Int64(max(1, spec.video.fps))
        audioInterval = 1_000_000 / Int64(max(1, spec.audio.packetsPerSecond))
        // Spread publishers over a frame interval, as independent encoders are.
        nextVideo = now + Int64.random(in: 0..<videoInterval)
        nextAudio = now + Int64.random(in: 0..<audioInterval)
    }
}
