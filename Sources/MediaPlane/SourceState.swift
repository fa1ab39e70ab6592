import StreamCore

/// A published track on the data-plane thread: where it comes from, who it feeds, and the
/// per-source state for NACKs, keyframe requests and receiver statistics.
final class SourceState {
    let id: UInt32
    unowned let transport: TransportState
    /// Learnt from the first packet for a simulcast layer announced only by its rid (0 until then).
    var ssrc: UInt32
    /// The RTP stream id of a simulcast layer whose SSRC is not known yet; empty otherwise.
    let rid: [UInt8]
    let ridExtensionId: UInt8
    /// The RFC 4588 retransmission stream (SSRC 0: none), and the payload type its packets
    /// take back when unwrapped.
    let rtxSSRC: UInt32
    let rtxPayloadType: UInt8
    let originalPayloadType: UInt8
    let isVideo: Bool
    let codec: VideoCodec?
    let clockRate: UInt32
    var sinks: [SinkState] = []
    /// Links whose remote source of the same id also gets this source's packets.
    var outlets: [PipeOutlet] = []
    /// For a remote source: the link its packets arrive on, where its keyframe requests go.
    unowned var upstream: PipeLink?
    /// Sinks waiting to switch to this source at its next keyframe.
    var pendingSinks: [SinkState] = []
    var lastMediaMs: Int64
    /// The first packet of the last keyframe, and when it arrived (`Int64.min`: none yet).
    var lastKeyframeSequence: UInt16 = 0
    var lastKeyframeMs = Int64.min
    let retransmissions: RetransmissionBuffer?
    var throttle: KeyframeRequestThrottle
    var repeater: KeyframeRequestRepeater
    var statistics: ReceptionStatistics
    /// The sequence numbers that arrived lately, so that a packet arriving again is not forwarded again.
    var receivedSequences = ReceivedSequenceWindow()
    /// Last sender report: its NTP middle 32 bits and arrival, for receiver-report LSR/DLSR.
    var lastSenderReportNTPMiddle: UInt32 = 0
    var lastSenderReportArrivalMs: Int64 = 0
    var report = SourceReport()
    /// `report.bytes` at the last report, and the rate of the window before it, for `bitrateBps`.
    var bytesAtLastReport: UInt64 = 0
    var previousWindowBps = 0
    /// The RFC 6464 header-extension id; 0 when the track carries no audio level.
    let audioLevelId: UInt8
    /// The loudest level (-dBov) and any voice activity seen since the last levels snapshot.
    var loudestLevel: UInt8 = 127
    var voiceActivity = false
    var levelSeen = false

    init(spec: MediaSourceSpec, transport: TransportState, nowMs: Int64, configuration: MediaPlaneConfiguration) {
        id = spec.id
        self.transport = transport
        ssrc = spec.ssrc
        rid = spec.rid ?? []
        ridExtensionId = spec.ridExtensionId ?? 0
        rtxSSRC = spec.retransmission?.ssrc ?? 0
        rtxPayloadType = spec.retransmission?.payloadType ?? 0
        originalPayloadType = spec.retransmission?.originalPayloadType ?? 0
        isVideo = spec.isVideo
        codec = spec.isVideo ? VideoCodec.named(spec.codec) : nil
        clockRate = spec.clockRate
        audioLevelId = spec.isVideo ? 0 : (spec.audioLevelExtensionId ?? 0)
        lastMediaMs = nowMs
        retransmissions = spec.isVideo ? RetransmissionBuffer(capacity: configuration.retransmissionBufferPackets) : nil
        throttle = KeyframeRequestThrottle(minimumIntervalMs: configuration.keyframeRequestIntervalMs)
        repeater = KeyframeRequestRepeater(
            intervalMs: configuration.keyframeRepeatIntervalMs, maximumAttempts: configuration.keyframeRepeatAttempts,
            slowIntervalMs: configuration.keyframeRepeatSlowIntervalMs)
        statistics = ReceptionStatistics(clockRate: spec.clockRate)
    }

    /// Whether a subscriber that can receive now still waits for a keyframe of this source.
    /// Subscribers that cannot receive yet do not count: they ask again once they connect, and
    /// must not keep a publisher sending keyframes for nobody.
    var hasSinksWaitingForKeyframe: Bool {
        pendingSinks.contains { $0.transport.canSend } || sinks.contains { $0.waitingForKeyframe && $0.transport.canSend }
    }
}
