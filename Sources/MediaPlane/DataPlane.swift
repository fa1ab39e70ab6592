import CSocketShims
import ICE
import RTPWire
import SecureTransport
import StreamCore

/// The data-plane loop. One instance runs on its own thread and owns every transport, source and
/// sink; the control plane reaches it only through the mailbox, and it answers only through the
/// report store. Per packet it allocates nothing, takes no lock and logs nothing.
final class DataPlane {
    let configuration: MediaPlaneConfiguration
    let mailbox: MediaPlaneMailbox
    let reports: ReportStore
    let epollFD: Int32
    var transports: [Int: TransportState] = [:]
    var sources: [UInt32: SourceState] = [:]
    var sinks: [UInt32: SinkState] = [:]
    var counters = DataPlaneCounters()
    let receiveBatch: OpaquePointer
    let receiveBatchSize: Int
    var flushList: [TransportState] = []
    var commands: [MediaCommand] = []
    let readyTokens: UnsafeMutablePointer<UInt64>
    var running = true
    var nowMs: Int64 = 0
    var nowUnixMs: Int64 = 0
    var lastReportMs: Int64 = 0
    var lastReceiverReportMs: Int64 = 0
    var lastRepeaterPollMs: Int64 = 0
    var lastLevelsMs: Int64 = 0
    var randomState: UInt64
    /// The one UDP socket every WebRTC transport shares; -1 when WebRTC is off.
    let webRTCFD: Int32
    /// WebRTC transports by the key of their local ICE ufrag, to route STUN checks.
    var webRTCByUfrag: [UInt64: TransportState] = [:]
    /// WebRTC transports by the remote addresses that passed their ICE checks, to route DTLS,
    /// RTP and RTCP.
    var webRTCByAddress: [UInt64: TransportState] = [:]
    /// Where STUN answers are written before they are sent.
    let stunResponse: UnsafeMutableRawBufferPointer
    /// Handshake and liveness news for the control plane.
    let events: AsyncStream<MediaPlaneEvent>.Continuation
    var lastConsentCheckMs: Int64 = 0

    static let wakeToken = UInt64.max
    static let webRTCToken = UInt64.max - 1
    static let maximumReadyEvents: Int32 = 64
    /// Receive buffers hold a full Ethernet-size datagram plus room to spare; longer ones are truncated and dropped.
    static let receiveBufferSize = 2048
    /// Send slots leave room for the largest SRTP/SRTCP trailer after a 1500-byte packet.
    static let sendSlotCapacity = 1600
    static let maximumPacketSize = 1500
    /// How often audio levels go up to the control plane.
    static let levelsIntervalMs: Int64 = 100

    init(configuration: MediaPlaneConfiguration, mailbox: MediaPlaneMailbox, reports: ReportStore, epollFD: Int32, webRTCFD: Int32, events: AsyncStream<MediaPlaneEvent>.Continuation) {
        self.configuration = configuration
        self.webRTCFD = webRTCFD
        self.events = events
        stunResponse = .allocate(byteCount: Self.receiveBufferSize, alignment: 8)
        self.mailbox = mailbox
        self.reports = reports
        self.epollFD = epollFD
        receiveBatchSize = max(1, configuration.receiveBatchSize)
        receiveBatch = pkr_batch_create(UInt32(receiveBatchSize), UInt32(Self.receiveBufferSize))
        readyTokens = .allocate(capacity: Int(Self.maximumReadyEvents))
        flushList.reserveCapacity(4096)
        commands.reserveCapacity(256)
        randomState = UInt64(bitPattern: pkr_realtime_ms()) ^ 0x5DEE_CE66_D1CE_4E5B
    }

    deinit {
        pkr_batch_destroy(receiveBatch)
        readyTokens.deallocate()
        stunResponse.deallocate()
    }

    /// Runs until a stop command arrives, then closes every socket it owns.
    func run() {
        _ = pkr_epoll_add(epollFD, mailbox.eventFD, Self.wakeToken)
        if webRTCFD >= 0 { _ = pkr_epoll_add(epollFD, webRTCFD, Self.webRTCToken) }
        updateClock()
        lastReportMs = nowMs
        lastReceiverReportMs = nowMs
        while running {
            let ready = pkr_epoll_wait(epollFD, readyTokens, Self.maximumReadyEvents, 20)
            updateClock()
            if ready > 0 {
                // Commands first: a publish or subscribe that raced its first packets applies
                // before those packets are read.
                for index in 0..<Int(ready) where readyTokens[index] == Self.wakeToken {
                    pkr_eventfd_drain(mailbox.eventFD)
                    drainMailbox()
                    flushAll()
                }
                for index in 0..<Int(ready) {
                    let token = readyTokens[index]
                    if token == Self.webRTCToken {
                        receiveWebRTC()
                    } else if token != Self.wakeToken, let transport = transports[Int(truncatingIfNeeded: token)] {
                        receive(on: transport)
                    }
                }
            }
            flushAll()
            runTimers()
            flushAll()
        }
        for transport in transports.values where !transport.sharesSocket {
            _ = pkr_epoll_remove(epollFD, transport.fd)
            _ = pkr_close(transport.fd)
        }
        if webRTCFD >= 0 {
            _ = pkr_epoll_remove(epollFD, webRTCFD)
            _ = pkr_close(webRTCFD)
        }
        events.finish()
        transports.removeAll()
        sources.removeAll()
        sinks.removeAll()
        publishReport()
    }

    func updateClock() {
        nowMs = pkr_monotonic_ms()
        nowUnixMs = pkr_realtime_ms()
    }

    /// A pseudo-random 32-bit value for initial sequence numbers and timestamps.
    func nextRandom() -> UInt32 {
        randomState &+= 0x9E37_79B9_7F4A_7C15
        var z = randomState
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// Reads every waiting datagram of one transport, a batch at a time (bounded so one busy
    /// transport cannot starve the others).
    func receive(on transport: TransportState) {
        for _ in 0..<8 {
            let received = pkr_batch_receive(transport.fd, receiveBatch)
            if received <= 0 { return }
            counters.receiveBatches &+= 1
            for index in 0..<UInt32(received) {
                let length = Int(pkr_batch_length(receiveBatch, index))
                let endpoint = IPv4Endpoint(ip: pkr_batch_source_ip(receiveBatch, index), port: pkr_batch_source_port(receiveBatch, index))
                handleDatagram(on: transport, buffer: UnsafeMutableRawPointer(pkr_batch_buffer(receiveBatch, index)), length: length, from: endpoint)
            }
            if Int(received) < receiveBatchSize { return }
        }
    }

    /// Periodic work: keyframe-request repeats, receiver reports to publishers, the report.
    func runTimers() {
        if nowMs - lastRepeaterPollMs >= 50 {
            lastRepeaterPollMs = nowMs
            for source in sources.values where source.repeater.isActive {
                guard source.hasSinksWaitingForKeyframe else {
                    source.repeater.stop()
                    continue
                }
                if source.repeater.poll(nowMs: nowMs) {
                    _ = source.throttle.shouldSendRequest(nowMs: nowMs)
                    sendPictureLossIndication(to: source)
                }
            }
        }
        if nowMs - lastLevelsMs >= Self.levelsIntervalMs {
            lastLevelsMs = nowMs
            publishLevels()
        }
                if nowMs - lastReceiverReportMs >= 1000 {
            lastReceiverReportMs = nowMs
            for source in sources.values { sendReceiverReport(for: source) }
        }
        if nowMs - lastConsentCheckMs >= 250 {
            lastConsentCheckMs = nowMs
            checkICEConsent()
        }
        if nowMs - lastReportMs >= 1000 {
            lastReportMs = nowMs
            publishReport()
        }
    }
}
