public import Auth
public import Cluster
public import Foundation
public import Logging
public import MediaPlane
public import Protocol
public import RoomEngine
public import SDP
public import SecureTransport

/// The control plane's heart: owns the room engine, the control sessions and the link to the
/// media plane. Every request runs here, one at a time; its actions are applied in order
/// (events to sessions, routing changes posted to the data plane).
public actor RelayCore {
    let configuration: RelayConfiguration
    /// The media plane, or a recording stand-in in tests and fuzzing.
    let media: any MediaCommands
    let verifier: TokenVerifier
    let logger: Logger
    let nowMs: @Sendable () -> Int64
    var engine: RoomEngine
    /// The control connections, with their limits' bookkeeping.
    var sessions = ClientSessions()
    /// Refusals by limit, for /metrics.
    let refusals = LimitRefusals()
    var accepting = true
    /// Logs, webhooks and counters, from the engine's domain events.
    let feed: OperatorFeed
    /// What /metrics exports (the feed counts into it too).
    nonisolated var metrics: RelayMetrics { feed.metrics }
    /// Webhook delivery.
    nonisolated var webhooks: WebhookHub { feed.webhooks }
    /// Volume reports, active speakers and network-quality windows.
    var mediaQuality = MediaQualityState()
    /// Rates, budgets and counts for the layer allocator.
    var layerAllocation = LayerAllocationState()
    /// WebRTC transports' negotiations (DTLS handshakes and SDP), by transport id.
    var webRTC: [Int: WebRTCSession] = [:]
    /// WHIP and WHEP sessions, by resource id.
    var httpSessions: [String: HTTPMediaSession] = [:]
    /// What the engine actions being applied have asked of the media plane so far.
    var applying = ApplyBatch()
    /// The relay's DTLS certificate and settings, shared by every WebRTC transport; nil when WebRTC is off.
    let dtlsContext: DTLSContext?
    /// The relay's WebRTC codecs and extensions (RFC 4588 RTX is offered to subscribers and
    /// accepted from publishers; transport-wide congestion control unless
    /// `media.congestionFeedback` is off).
    let negotiator: RelayNegotiator
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Outbound messages queued per connection before a slow reader is disconnected.
    static let outboundQueueLimit = 4096

    /// Where rooms live: the cluster's placements, or this node alone.
    let directory: any RoomDirectory
    /// The node-to-node connections; nil for a single node.
    let peers: (any PeerLink)?
    /// This node's ends of the media pipes, what it knows of each peer's process, and the
    /// links it asked peers for.
    var peerState = PeerState()
    /// The nodes this node serves rooms of as an edge, by id: where their anchors are sent.
    var originNodes: [String: ClusterNode] = [:]

    public init(configuration: RelayConfiguration, media: any MediaCommands, logger: Logger, nowMs: @escaping @Sendable () -> Int64) {
        self.init(configuration: configuration, media: media, logger: logger, nowMs: nowMs, directory: nil, peers: nil)
    }

    /// Starts a core that presents `dtlsContext`'s certificate and offers its SRTP profiles to
    /// WebRTC peers instead of making a certificate of its own (`srtpProfiles` of the
    /// configuration is then not read). For processes that start many cores, such as tests and
    /// fuzzing: making a certificate and a context costs milliseconds each time.
    public init(
        configuration: RelayConfiguration, media: any MediaCommands, logger: Logger, nowMs: @escaping @Sendable () -> Int64, dtlsContext: DTLSContext
    ) {
        self.init(configuration: configuration, media: media, logger: logger, nowMs: nowMs, directory: nil, peers: nil, dtlsContext: dtlsContext)
    }

    /// A core of a cluster node when `directory` and `peers` are given, else of a single node.
    init(
        configuration: RelayConfiguration, media: any MediaCommands, logger: Logger, nowMs: @escaping @Sendable () -> Int64,
        directory: (any RoomDirectory)?, peers: (any PeerLink)?, dtlsContext: DTLSContext? = nil
    ) {
        self.directory = directory ?? LocalRoomDirectory(node: ClusterNode(id: "", controlURL: "", mediaAddress: media.announcedAddress, capacity: 1))
        self.peers = peers
        self.configuration = configuration
        negotiator = RelayNegotiator(
            capabilities: configuration.congestionFeedback ? RelayCapabilities() : RelayCapabilities().withoutTransportWideCongestionControl())
        self.media = media
        self.logger = logger
        self.nowMs = nowMs
        self.feed = OperatorFeed(
            logger: logger, metrics: RelayMetrics(), webhooks: WebhookHub(configuration: configuration.webhooks, logger: logger, nowMs: nowMs))
        self.verifier = TokenVerifier(keys: configuration.verificationKeys, leewaySeconds: configuration.tokenLeewaySeconds)
        self.engine = RoomEngine(limits: configuration.rooms, ssrcSeed: UInt64(bitPattern: nowMs()) ^ 0xA5A5_5A5A_C3C3_3C3C)
        if !media.webRTCPorts.isEmpty, let dtlsContext {
            self.dtlsContext = dtlsContext
        } else if !media.webRTCPorts.isEmpty {
            do {
                self.dtlsContext = try DTLSContext(certificate: DTLSCertificate(), srtpProfiles: configuration.srtpProfiles)
            } catch {
                logger.error("WebRTC is off: the DTLS certificate could not be made", metadata: ["error": "\(error)"])
                self.dtlsContext = nil
            }
        } else {
            self.dtlsContext = nil
        }
    }

    var now: EngineTime { EngineTime(milliseconds: nowMs()) }

    /// Whether joins are accepted (false while draining for shutdown).
    public var isAccepting: Bool { accepting }

    /// Admits a connection from `address` (the peer's IP) unless it would exceed
    /// `control.maxConnections` or `control.maxConnectionsPerAddress`.
    public func connect(from address: String) -> ConnectionAdmission {
        if sessions.count >= configuration.maxConnections {
            refusals.count(.connections)
            logger.debug("connection refused: the relay is at its connection limit", metadata: ["address": "\(address)"])
            return .refused(.tryAgainLater("the relay holds \(configuration.maxConnections) connections, its limit; try again later"))
        }
        if sessions.connections(from: address) >= configuration.maxConnectionsPerAddress {
            refusals.count(.connectionsPerAddress)
            logger.debug("connection refused: too many from one address", metadata: ["address": "\(address)"])
            return .refused(.tryAgainLater("\(configuration.maxConnectionsPerAddress) connections from \(address) are open, the limit per address"))
        }
        let (id, messages, cut) = openSession(address: address)
        return .admitted(ControlConnection(session: id, messages: messages, cut: cut))
    }

    /// Registers a connection made in-process (tests, tools): no address, so only the total
    /// counts it. Its outbound messages arrive on the returned stream.
    public func connect() -> (SessionID, AsyncStream<String>) {
        let (id, messages, _) = openSession(address: nil)
        return (id, messages)
    }

    private func openSession(address: String?) -> (SessionID, AsyncStream<String>, AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(Self.outboundQueueLimit))
        let (cut, cutContinuation) = AsyncStream<Void>.makeStream()
        let now = nowMs()
        let id = sessions.open { id in
            ClientSession(
                id: id, outbound: continuation, cut: cutContinuation, userId: nil,
                limiter: RateLimiter(rate: configuration.requestsPerSecond, burst: configuration.requestsPerSecond * 2, nowMs: now),
                joinLimiter: RateLimiter(rate: configuration.joinsPerSecond, burst: configuration.joinsPerSecond * 2, nowMs: now),
                address: address)
        }
        logger.debug("connection opened", metadata: ["session": "\(id)", "address": "\(address ?? "-")"])
        // A connection that arrives while the relay drains is closed at once (going away), so
        // that it cannot hold the shutdown open.
        if !accepting { disconnect(id) }
        return (id, stream, cut)
    }

    /// The connection closed, or the relay ends it with `close`: the user leaves every room
    /// (others see Dropped) and its transports close. `cutting` drops what is still queued
    /// for the client instead of writing it first.
    public func disconnect(_ session: SessionID, close: ConnectionClose = .goingAway, cutting: Bool = false) {
        guard let state = sessions.remove(session, close: close) else { return }
        // Its transports close once their sinks and sources are gone (the engine's last actions).
        apply(engine.disconnect(session: session, cause: accepting ? .disconnected : .serverShutdown, now: now).actions)
        state.outbound.finish()
        if cutting { state.cut.finish() }
        logger.info(
            "connection closed",
            metadata: [
                "session": "\(session)", "user": "\(state.userId ?? "-")", "transports": "\(state.transports.count)", "draining": "\(!accepting)",
            ])
    }

    /// How the listener closes a session the relay ended (going away unless a limit ended it);
    /// forgets it.
    public func takeClose(for session: SessionID) -> ConnectionClose {
        sessions.takeClose(for: session)
    }

    /// Queues one encoded message for a session; a reader too slow to keep up is disconnected.
    func send(_ text: String, to session: SessionID) {
        // Only the queue is read: copying the whole session would retain every field of it, once
        // per message and member when a room is told something.
        guard let outbound = sessions[session]?.outbound else { return }
        if case .dropped = outbound.yield(text) {
            refusals.count(.slowReader)
            logger.warning(
                "client reads too slowly; closing its connection", metadata: ["session": "\(session)", "user": "\(sessions[session]?.userId ?? "-")"])
            disconnect(session, close: .policyViolation("the client read too slowly: \(Self.outboundQueueLimit) messages were waiting"), cutting: true)
        }
    }

    func send(_ event: ServerEvent, to session: SessionID) {
        guard let text = text(of: event) else { return }
        send(text, to: session)
    }

    /// An event as the JSON text a client receives.
    func text(of event: ServerEvent) -> String? {
        guard let data = try? encoder.encode(event) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    func respond<Result: Encodable>(_ id: RequestID?, _ outcome: Swift.Result<Result, RelayError>, to session: SessionID) {
        let response: OutboundResponse<Result>
        switch outcome {
        case .success(let result): response = OutboundResponse(id: id, result: result, error: nil)
        case .failure(let error): response = OutboundResponse(id: id, result: nil, error: error)
        }
        let method = sessions[session]?.answering.removeValue(forKey: id) ?? "unknown"
        metrics.requestAnswered(method: method, code: response.error.map { Int($0.code.rawValue) } ?? 0)
        guard let data = try? encoder.encode(response), let text = String(data: data, encoding: .utf8) else { return }
        send(text, to: session)
    }

    /// Applies engine actions in order: the one place where what the engine decided happens.
    /// Routing changes are gathered and go to the media plane as one batch once the outermost
    /// apply is through (an event that disconnects a slow reader applies that disconnection
    /// inside, and its changes join the same batch behind the ones before them); receiving
    /// WebRTC transports whose tracks changed are offered them after the batch.
    func apply(_ actions: [EngineAction]) {
        applying.depth += 1
        // The engine tells a room about a change with one action per member, all with the same
        // event: it is encoded once for the run, not once per member.
        var encoded: (event: ServerEvent, text: String)?
        for action in actions {
            switch action {
            case .event(let session, let event):
                if let encoded, encoded.event == event {
                    send(encoded.text, to: session)
                } else if let text = text(of: event) {
                    encoded = (event, text)
                    send(text, to: session)
                }
            case .media(let change):
                applying.media.append(mediaChange(change))
            case .domain(let event):
                feed.record(event)
                // A room that ended here can be placed anew, on any node.
                if case .roomEnded(let roomId) = event { directory.roomEnded(roomId: roomId) }
            case .notify(let notice):
                notify(notice)
            case .subscriberTracks(let tracks):
                webRTC[tracks.transportId]?.offer(tracks.tracks)
                applying.offers.insert(tracks.transportId)
            }
        }
        applying.depth -= 1
        guard applying.depth == 0 else { return }
        let (changes, offers) = (applying.media, applying.offers)
        applying = ApplyBatch()
        media.apply(changes)
        if !offers.isEmpty { sendOffers(offers) }
    }

    /// An engine's media action as the media plane's routing change.
    func mediaChange(_ change: MediaAction) -> MediaChange {
        switch change {
        case .addSource(let track):
            var spec = MediaSourceSpec(
                id: track.id, transportId: track.transportId, ssrc: track.ssrc, isVideo: track.kind == .video,
                codec: track.codec, clockRate: UInt32(track.clockRate),
                audioLevelExtensionId: track.kind == .audio ? track.audioLevelExtensionId : nil,
                rid: track.rid.map { Array($0.utf8) }, ridExtensionId: track.rid == nil ? nil : track.ridExtensionId)
            if let ssrc = track.rtxSSRC, let payloadType = track.rtxPayloadType {
                spec.retransmission = (ssrc, UInt8(clamping: payloadType), UInt8(clamping: track.payloadType))
            }
            return .addSource(spec)
        case .removeSource(let id):
            return .removeSource(id)
        case .addSink(let sink):
            return .addSink(
                MediaSinkSpec(
                    id: sink.id, transportId: sink.transportId, outputSSRC: sink.outputSSRC, isVideo: sink.kind == .video, clockRate: UInt32(sink.clockRate),
                    startsFromRecentKeyframe: webRTC[sink.transportId] != nil))
        case .removeSink(let id):
            return .removeSink(id)
        case .bind(let sink, let source):
            return .bind(sink: sink, source: source)
        case .switchSource(let sink, let source):
            return .switchSource(sink: sink, source: source)
        case .unbind(let sink):
            return .unbind(sink: sink)
        case .setSinkPayloadType(let sink, let payloadType):
            return .setSinkPayloadType(sink: sink, payloadType: payloadType)
        case .setSinkRetransmission(let sink, let ssrc, let payloadType):
            return .setSinkRetransmission(sink: sink, ssrc: ssrc, payloadType: payloadType)
        case .restartSinkAtKeyframe(let sink):
            return .restartSinkAtKeyframe(sink: sink)
        case .closeTransport(let id):
            // Its WebRTC negotiation, if it had one, ends with it.
            webRTC[id]?.close()
            webRTC[id] = nil
            return .closeTransport(id)
        }
    }
}
