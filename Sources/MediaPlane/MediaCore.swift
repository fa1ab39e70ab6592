import ICE
import RTPWire
import SecureTransport
import StreamCore

/// The media plane's decisions, without sockets and without a clock: datagrams and the time go
/// in, queued datagrams, drops with named reasons, RTCP, statistics and reports come out.
///
/// It owns every transport, source and sink of its thread. The shell (``MediaShell``) reads the
/// sockets, tells the core the time, applies the control plane's commands and sends what the core
/// queued; tests drive the core directly with scripted packets and time. Per packet it allocates
/// nothing, takes no lock and logs nothing.
final class MediaCore {
    let configuration: MediaPlaneConfiguration
    let reports: ReportStore
    /// Where queued datagrams leave.
    let output: any DatagramOutput
    /// The most bytes a video packet is padded by to go on with its subscriber's run of
    /// equal-size datagrams (`segmentPaddingBytes`); 0 when padding or segmentation is off.
    let segmentPaddingLimit: Int
    /// The padding the last packet queued with ``SegmentPaddingChoice/toOpenRun`` got, for the
    /// sink's record (``SinkState/sentRecord``).
    var lastChosenPadding = 0
    var transports: [Int: TransportState] = [:]
    var sources: [UInt32: SourceState] = [:]
    var sinks: [UInt32: SinkState] = [:]
    var counters = DataPlaneCounters()
    var flushList: [TransportState] = []
    /// Whether the packets being handled lie in the shell's receive batch, which nothing
    /// overwrites before the shell's next read: a plain subscriber's datagram may then leave
    /// with its payload taken from there instead of copied into a send slot. False for packets
    /// from links and timers, whose buffers are reused sooner; retransmissions, answered from
    /// the retransmission buffer, are sent as not from the batch either.
    var handlesReceiveBatch = false
    /// Whether queued datagrams take bytes from the receive batch: the shell sends them before
    /// it reads into that batch again.
    var queuedFromReceiveBatch = false
    /// The pending forward run (``forwardRun()``): its packets, how many, and their source.
    let forwardRunEntries: UnsafeMutablePointer<ForwardRunEntry>
    var forwardRunCount = 0
    var forwardRunSource: SourceState?
    /// Links to the other cores, by peer.
    var links: [Int: PipeLink] = [:]
    /// A small buffer for what the core writes to a link itself (sender reports).
    let pipeScratch: UnsafeMutableRawBufferPointer
    /// Monotonic milliseconds, set by ``advanceClock(monotonicMs:unixMs:)``.
    var nowMs: Int64 = 0
    /// The same clock in microseconds: arrival times for transport-wide congestion feedback.
    var nowUs: Int64 = 0
    /// Unix milliseconds, for sender reports and reports to the control plane.
    var nowUnixMs: Int64 = 0
    var lastReportMs: Int64 = 0
    /// When the last report was published: the start of the next one's rate window.
    var lastPublishedReportMs: Int64 = 0
    var lastReceiverReportMs: Int64 = 0
    var lastRepeaterPollMs: Int64 = 0
    /// Sources with a keyframe request deferred to the end of their publisher's hold.
    var deferredKeyframeSources: [SourceState] = []
    var lastLevelsMs: Int64 = 0
    var lastConsentCheckMs: Int64 = 0
    var randomState: UInt64
    /// Whether WebRTC transports can be added (the shell has its shard's WebRTC socket).
    let hasWebRTCSocket: Bool
    /// WebRTC transports by the key of their local ICE ufrag, to route STUN checks.
    var webRTCByUfrag: [UInt64: TransportState] = [:]
    /// WebRTC transports by the remote addresses that passed their ICE checks, to route DTLS,
    /// RTP and RTCP.
    var webRTCByAddress: [UInt64: TransportState] = [:]
    /// Transports that send transport-wide congestion feedback (their publishers' packets carry
    /// transport-wide sequence numbers), for the feedback timer.
    var feedbackTransports: [TransportState] = []
    /// Transports that stamp transport-wide numbers on what they send subscribers, for probing,
    /// and those of them with a probe under way, served every turn.
    var stampingTransports: [TransportState] = []
    var probingTransports: [TransportState] = []
    /// Transports whose queues hold packets the pacer kept back, flushed again on the timer.
    var pacedTransports: [TransportState] = []
    /// When the stamping transports were last asked whether a probe is due.
    var lastProbeScanUs: Int64?
    /// Where STUN answers are written before they are sent.
    let stunResponse: UnsafeMutableRawBufferPointer
    /// Handshake and liveness news for the control plane.
    let events: AsyncStream<MediaPlaneEvent>.Continuation

    /// Datagrams longer than a full Ethernet-size packet are dropped as oversized.
    static let maximumPacketSize = 1500
    /// Addresses a WebRTC transport keeps routed from passing checks (a client has a few:
    /// host, reflexive and relayed candidates on each family, and TCP).
    static let maximumICEAddresses = 16
    /// Send slots leave room for the largest SRTP/SRTCP trailer after a 1500-byte packet.
    static let sendSlotCapacity = 1600
    /// STUN answers are written into a buffer of this size.
    static let stunResponseCapacity = 2048
    /// Packets taken from one link before the sockets get their turn.
    static let pipePacketsPerTurn = 256
    /// How often audio levels go up to the control plane.
    static let levelsIntervalMs: Int64 = 100

    /// - Parameters:
    ///   - randomSeed: seeds the initial sequence numbers, timestamps and RTCP SSRCs (tests pass a fixed one).
    ///   - hasWebRTCSocket: whether the shell owns its shard's WebRTC socket.
    init(
        configuration: MediaPlaneConfiguration, reports: ReportStore, output: any DatagramOutput, hasWebRTCSocket: Bool,
        events: AsyncStream<MediaPlaneEvent>.Continuation, randomSeed: UInt64
    ) {
        self.configuration = configuration
        self.reports = reports
        self.output = output
        segmentPaddingLimit = configuration.segmentationOffload == .on ? min(255, max(0, configuration.segmentPaddingBytes)) : 0
        self.hasWebRTCSocket = hasWebRTCSocket
        self.events = events
        stunResponse = .allocate(byteCount: Self.stunResponseCapacity, alignment: 8)
        pipeScratch = .allocate(byteCount: 64, alignment: 8)
        forwardRunEntries = .allocate(capacity: Self.forwardRunCapacity)
        flushList.reserveCapacity(4096)
        randomState = randomSeed ^ 0x5DEE_CE66_D1CE_4E5B
    }

    deinit {
        stunResponse.deallocate()
        pipeScratch.deallocate()
        forwardRunEntries.deinitialize(count: forwardRunCount)
        forwardRunEntries.deallocate()
    }

    /// Sets the time for what follows: packets, commands and timers.
    @inline(__always)
    func advanceClock(monotonicMs: Int64, unixMs: Int64) {
        advanceClock(monotonicUs: monotonicMs &* 1000, unixMs: unixMs)
    }

    /// Sets the time for what follows, to the microsecond.
    @inline(__always)
    func advanceClock(monotonicUs: Int64, unixMs: Int64) {
        nowUs = monotonicUs
        nowMs = monotonicUs / 1000
        nowUnixMs = unixMs
    }

    /// Moves the monotonic clock on without reading the wall clock: before each receive batch,
    /// so that arrivals are timed by when their batch was read.
    @inline(__always)
    func advanceMonotonicClock(monotonicUs: Int64) {
        guard monotonicUs > nowUs else { return }
        nowUs = monotonicUs
        nowMs = monotonicUs / 1000
    }

    /// Starts the timers from the current time (the shell calls it once before its loop).
    func startTimers() {
        lastReportMs = nowMs
        lastPublishedReportMs = nowMs
        lastReceiverReportMs = nowMs
    }

    /// A pseudo-random 32-bit value for initial sequence numbers and timestamps.
    func nextRandom() -> UInt32 {
        randomState &+= 0x9E37_79B9_7F4A_7C15
        var z = randomState
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// Periodic work: keyframe-request repeats, receiver reports to publishers, audio levels, ICE
    /// consent, the report.
    func runTimers() {
        if nowMs - lastRepeaterPollMs >= 50 {
            lastRepeaterPollMs = nowMs
            for source in sources.values where source.repeater.isActive {
                guard source.hasSinksWaitingForKeyframe else {
                    source.repeater.stop()
                    continue
                }
                if source.repeater.poll(nowMs: nowMs) { requestKeyframeForWaitingSinks(from: source) }
            }
        }
        // On every turn, not every 50 ms: each millisecond here is one the viewers wait.
        sendDueDeferredKeyframeRequests()
        if nowMs - lastLevelsMs >= Self.levelsIntervalMs {
            lastLevelsMs = nowMs
            publishLevels()
        }
        if nowMs - lastReceiverReportMs >= 1000 {
            lastReceiverReportMs = nowMs
            for source in sources.values { sendReceiverReport(for: source) }
        }
        if !feedbackTransports.isEmpty { sendTransportFeedback() }
        if !stampingTransports.isEmpty { sendProbes() }
        if !pacedTransports.isEmpty { flushPaced() }
        if nowMs - lastConsentCheckMs >= 250 {
            lastConsentCheckMs = nowMs
            checkICEConsent()
        }
        if nowMs - lastReportMs >= 1000 {
            lastReportMs = nowMs
            publishReport()
        }
    }

    /// Forgets every transport, source and sink (the thread is stopping) and publishes the last report.
    func shutDown() {
        events.finish()
        transports.removeAll()
        feedbackTransports.removeAll()
        stampingTransports.removeAll()
        pacedTransports.removeAll()
        probingTransports.removeAll()
        sources.removeAll()
        sinks.removeAll()
        publishReport()
    }
}
