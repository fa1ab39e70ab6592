import StreamCore

/// A subscriber track on the data-plane thread: its rewriter keeps SSRC, sequence numbers and
/// timestamps continuous across every source it is bound to.
final class SinkState {
    let id: UInt32
    unowned let transport: TransportState
    let isVideo: Bool
    var rewriter: TrackRewriter
    var source: SourceState?
    /// The source this sink moves to at that source's next keyframe (a layer switch), if any.
    var pendingSource: SourceState?
    /// Increases on every bind so the rewriter starts a new generation.
    var generation: UInt32 = 0
    /// Video sinks start at a keyframe after every bind so decoders never see a broken picture.
    var waitingForKeyframe = false
    var remoteStatistics = RemoteReceiverStatistics()
    var report = SinkReport()

    init(spec: MediaSinkSpec, transport: TransportState, initialSequenceNumber: UInt16, initialTimestamp: UInt32) {
        id = spec.id
        self.transport = transport
        isVideo = spec.isVideo
        rewriter = TrackRewriter(outputSSRC: spec.outputSSRC, initialSequenceNumber: initialSequenceNumber, initialTimestamp: initialTimestamp, clockRate: spec.clockRate)
    }
}
