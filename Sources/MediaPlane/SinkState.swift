import StreamCore

/// A subscriber track on the data-plane thread: its rewriter keeps SSRC, sequence numbers and
/// timestamps continuous across every source it is bound to.
final class SinkState {
    let id: UInt32
    unowned let transport: TransportState
    /// The same transport without reference counting, for the per-packet path: every read of
    /// an `unowned` reference is an atomic retain and release, and `unowned(unsafe)` still gets
    /// a retain. Valid exactly as long as `transport`: a transport's sinks are removed with it.
    let transportReference: Unmanaged<TransportState>
    let isVideo: Bool
    /// ``MediaSinkSpec/startsFromRecentKeyframe``.
    let startsFromRecentKeyframe: Bool
    var rewriter: TrackRewriter
    /// The source feeding this sink; setting it chooses the send path.
    var source: SourceState? {
        didSet { sendPath = SinkSendPath(rewritesExtensions: transport.rewritesExtensions, rewritesVP8: source?.codec == .vp8) }
    }
    /// How packets are written for this sink, chosen when its source changes.
    private(set) var sendPath = SinkSendPath.copy
    /// The source this sink moves to at that source's next keyframe (a layer switch), if any.
    var pendingSource: SourceState?
    /// The payload type written into this sink's packets; `keepPayloadType` leaves the publisher's.
    var outputPayloadType: UInt8 = SinkState.keepPayloadType
    /// Keeps VP8 picture IDs continuous across the sources this sink is bound to.
    var vp8 = VP8DescriptorRewriter()
    static let keepPayloadType: UInt8 = 0xFF
    /// The subscriber's RFC 4588 retransmission stream (SSRC 0: retransmissions repeat the
    /// original packet) and that stream's own sequence numbers.
    var rtxSSRC: UInt32 = 0
    var rtxPayloadType: UInt8 = 0
    var rtxSequenceNumber: UInt16 = 0
    /// Whether video packets may be padded to the transport's run (``MediaCore/updateSegmentPadding(of:)``).
    var padsSegments = false
    /// For an SRTP sink: what went out under each of its last ``MediaCore/sentRecordLength``
    /// output sequence numbers, its SRTP indices (``MediaCore/recordSent(_:serial:padding:in:)``).
    /// No index may seal two different packets (for AES-GCM, the nonce): a second packet under a
    /// number already used is dropped, and a repair on the sink's own SSRC goes out only as an
    /// exact copy of the first, the same stored packet with the same padding. nil for a plain sink.
    let sentRecord: UnsafeMutablePointer<UInt64>?
    /// Increases on every bind so the rewriter starts a new generation.
    var generation: UInt32 = 0
    /// Video sinks start at a keyframe after every bind so decoders never see a broken picture.
    var waitingForKeyframe = false
    var remoteStatistics = RemoteReceiverStatistics()
    var report = SinkReport()
    /// Which of the video sink's NACKs are answered: each packet once per round trip, within a
    /// byte budget its stream earns. nil for audio, which is never resent.
    let retransmissionLimiter: RetransmissionLimiter?

    init(spec: MediaSinkSpec, transport: TransportState, initialSequenceNumber: UInt16, initialTimestamp: UInt32, configuration: MediaPlaneConfiguration) {
        id = spec.id
        self.transport = transport
        transportReference = Unmanaged.passUnretained(transport)
        isVideo = spec.isVideo
        startsFromRecentKeyframe = spec.startsFromRecentKeyframe
        rewriter = TrackRewriter(
            outputSSRC: spec.outputSSRC, initialSequenceNumber: initialSequenceNumber, initialTimestamp: initialTimestamp, clockRate: spec.clockRate)
        retransmissionLimiter =
            spec.isVideo
            ? RetransmissionLimiter(capacity: Self.limiterCapacity(for: configuration.retransmissionBufferPackets), policy: configuration.retransmissionPolicy)
            : nil
        if transport.isPlain {
            sentRecord = nil
        } else {
            let record = UnsafeMutablePointer<UInt64>.allocate(capacity: MediaCore.sentRecordLength)
            record.initialize(repeating: 0, count: MediaCore.sentRecordLength)
            sentRecord = record
        }
    }

    deinit {
        sentRecord?.deallocate()
    }

    /// Room for one entry per packet the retransmission buffer can hold: a power of two.
    static func limiterCapacity(for bufferPackets: Int) -> Int {
        var capacity = 1
        while capacity < min(max(bufferPackets, 1), 65_536) { capacity <<= 1 }
        return capacity
    }
}
