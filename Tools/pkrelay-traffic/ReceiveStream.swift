import TrafficCore

/// One stream a simulated subscriber receives (one SSRC the relay sends it).
struct ReceiveStream {
    var counter = SequenceLossCounter()
    let isVideo: Bool
    var gotKeyframe = false
    var lastKeyframeRequest: Int64 = 0
    var pending: [PendingNack] = []
}
