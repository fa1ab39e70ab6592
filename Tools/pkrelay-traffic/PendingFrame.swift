/// A video frame a paced publisher has encoded and not yet sent whole: what it takes to write
/// each of its packets when the pacer lets it go.
struct PendingFrame {
    var keyframe: Bool
    var frameSize: Int
    var packets: Int
    /// The first packet not sent yet.
    var next = 0
    var timestamp: UInt32
    /// The low byte of the frame's index, which fills its payload.
    var fill: UInt8
    /// When the encoder produced it: an unpaced packet's lateness counts from here (a paced
    /// one's from its pacer slot).
    var scheduled: Int64
}
