import Protocol
import RoomEngine
import Testing

/// One client in a scenario: its session, its first transport and the SSRCs it publishes with.
struct Client: Hashable {
    let userId: String
    let session: SessionID
    let transport: Int
    let ssrcBase: UInt32

    /// The tracks this client declares for a stream: Opus audio and VP8 video.
    func tracks(_ index: StreamIndex = .main, mediaType: Int = MediaType.audioAndVideo) -> [TrackDescription] {
        let base = ssrcBase + (index == .screen ? 10 : 0)
        var tracks: [TrackDescription] = []
        if mediaType & MediaType.audio != 0 {
            tracks.append(TrackDescription(kind: .audio, ssrc: base + 1, payloadType: 111, codec: "opus", clockRate: 48_000, channels: 2))
        }
        if mediaType & MediaType.video != 0 {
            tracks.append(TrackDescription(kind: .video, ssrc: base + 2, payloadType: 96, codec: "VP8", clockRate: 90_000, parameters: "max-fr=30"))
        }
        return tracks
    }
}

/// A scripted room engine: a manual clock, sessions with transports, and the log of every action
/// the engine produced, so a test can ask what each session received.
struct Scenario {
    static let room = "pk-room"
    static let start = EngineTime(milliseconds: 1_700_000_000_000)

    var engine: RoomEngine
    var now: EngineTime = Scenario.start
    /// Every action of every call, in order.
    private(set) var log: [EngineAction] = []
    private var nextSession: SessionID = 1
    private var nextTransport = 100
    private var nextSSRCBase: UInt32 = 10_000

    init(limits: RoomLimits = RoomLimits(), seed: UInt64 = 0x5EED) {
        engine = RoomEngine(limits: limits, ssrcSeed: seed)
    }

    // MARK: Clock

    mutating func advance(seconds: Double) {
        now = now.adding(milliseconds: Int64(seconds * 1000))
    }

    /// A time relative to the start of the scenario.
    static func at(seconds: Double) -> EngineTime { start.adding(milliseconds: Int64(seconds * 1000)) }

    /// Grants valid for `seconds` from now.
    func grants(publish: Bool = true, subscribe: Bool = true, forward: Bool = true, hidden: Bool = false, validFor seconds: Double = 3600) -> TokenGrants {
        TokenGrants(publish: publish, subscribe: subscribe, forward: forward, hidden: hidden, expiresAt: now.adding(milliseconds: Int64(seconds * 1000)))
    }

    // MARK: Sessions and transports

    /// A new session with one transport, not yet in any room.
    mutating func connect(_ userId: String) -> Client {
        let session = nextSession
        nextSession += 1
        let transport = createTransport(for: session)
        let base = nextSSRCBase
        nextSSRCBase += 1000
        return Client(userId: userId, session: session, transport: transport, ssrcBase: base)
    }

    /// A further transport for a session.
    mutating func createTransport(for session: SessionID, kind: TransportKind = .srtp) -> Int {
        let transport = nextTransport
        nextTransport += 1
        engine.transportCreated(session: session, transportId: transport, kind: kind)
        return transport
    }

    // MARK: Calls (each records its actions)

    @discardableResult
    mutating func join(
        _ client: Client, role: UserRole = .anchor, visible: Bool = true, config: RoomConfig = RoomConfig(),
        grants: TokenGrants? = nil, room: String = Scenario.room
    ) -> EngineOutcome<JoinRoomResult> {
        let request = JoinRequest(
            session: client.session, roomId: room, userId: client.userId, role: role, visible: visible,
            roomConfig: config, grants: grants ?? self.grants())
        return record(engine.join(request, now: now))
    }

    /// Connects and joins in one step; records an issue if the join fails.
    mutating func enter(
        _ userId: String, role: UserRole = .anchor, visible: Bool = true, autoSubscribe: Bool = false,
        config: RoomConfig? = nil, grants: TokenGrants? = nil, room: String = Scenario.room,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Client {
        let client = connect(userId)
        let roomConfig = config ?? RoomConfig(subscribeTransportId: autoSubscribe ? client.transport : nil)
        let outcome = join(client, role: role, visible: visible, config: roomConfig, grants: grants, room: room)
        if outcome.error != nil { Issue.record("join of \(userId) failed: \(outcome.error!)", sourceLocation: sourceLocation) }
        return client
    }

    @discardableResult
    mutating func leave(_ client: Client, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.leave(session: client.session, roomId: room, now: now))
    }

    @discardableResult
    mutating func publish(
        _ client: Client, _ index: StreamIndex = .main, tracks: [TrackDescription]? = nil, transport: Int? = nil,
        room: String = Scenario.room
    ) -> EngineOutcome<PublishStreamResult> {
        let params = PublishStreamParams(roomId: room, streamIndex: index, transportId: transport ?? client.transport, tracks: tracks ?? client.tracks(index))
        return record(engine.publish(session: client.session, params: params, now: now))
    }

    @discardableResult
    mutating func unpublish(_ client: Client, _ index: StreamIndex = .main, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.unpublish(session: client.session, params: StreamParams(roomId: room, streamIndex: index), now: now))
    }

    @discardableResult
    mutating func subscribe(
        _ client: Client, to publisher: String, _ index: StreamIndex = .main, mediaType: Int? = nil, transport: Int? = nil,
        audioTransport: Int? = nil, room: String = Scenario.room
    ) -> EngineOutcome<SubscribeStreamResult> {
        let params = SubscribeStreamParams(
            roomId: room, userId: publisher, streamIndex: index, mediaType: mediaType, transportId: transport ?? client.transport,
            audioTransportId: audioTransport)
        return record(engine.subscribe(session: client.session, params: params, now: now))
    }

    @discardableResult
    mutating func unsubscribe(
        _ client: Client, from publisher: String, _ index: StreamIndex = .main, mediaType: Int? = nil, room: String = Scenario.room
    ) -> EngineOutcome<EmptyResult> {
        let params = SubscribeStreamParams(roomId: room, userId: publisher, streamIndex: index, mediaType: mediaType)
        return record(engine.unsubscribe(session: client.session, params: params, now: now))
    }

    @discardableResult
    mutating func setVisible(_ client: Client, _ visible: Bool, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.setVisibility(session: client.session, params: SetUserVisibilityParams(roomId: room, visible: visible), now: now))
    }

    @discardableResult
    mutating func switchRole(_ client: Client, to role: UserRole, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.switchRole(session: client.session, params: SwitchRoleParams(roomId: room, role: role), now: now))
    }

    @discardableResult
    mutating func updateToken(_ client: Client, grants: TokenGrants, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.updateToken(session: client.session, roomId: room, grants: grants, now: now))
    }

    @discardableResult
    mutating func kick(_ userId: String, room: String = Scenario.room) -> EngineOutcome<EmptyResult> {
        record(engine.kick(roomId: room, userId: userId, now: now))
    }

    @discardableResult
    mutating func dismiss(room: String = Scenario.room, reason: String? = nil) -> EngineOutcome<EmptyResult> {
        record(engine.dismiss(roomId: room, reason: reason, now: now))
    }

    @discardableResult
    mutating func tick() -> [EngineAction] {
        let actions = engine.tick(now: now)
        log.append(contentsOf: actions)
        return actions
    }

    @discardableResult
    mutating func closeTransport(_ session: SessionID, _ transport: Int) -> [EngineAction] {
        let actions = engine.transportClosed(session: session, transportId: transport, now: now)
        log.append(contentsOf: actions)
        return actions
    }

    @discardableResult
    mutating func disconnect(_ client: Client, cause: DepartureReason = .disconnected) -> (actions: [EngineAction], transports: [Int]) {
        let answer = engine.disconnect(session: client.session, cause: cause, now: now)
        log.append(contentsOf: answer.actions)
        return answer
    }

    /// Reports media on every source track of a publication.
    mutating func mediaArrives(on sources: [SourceTrack]) {
        for source in sources { engine.recordMediaActivity(sourceId: source.id, at: now) }
    }

    mutating func record<T>(_ outcome: EngineOutcome<T>) -> EngineOutcome<T> {
        log.append(contentsOf: outcome.actions)
        return outcome
    }

    /// Records actions returned outside an outcome (tick-like calls).
    mutating func record(actions: [EngineAction]) -> [EngineAction] {
        log.append(contentsOf: actions)
        return actions
    }

    // MARK: What happened

    /// A position in the log, to look only at what happens afterwards.
    var mark: Int { log.count }

    /// The events a session received since `mark`, in order. Exit messages, forward-state
    /// messages and onConnectOtherRoom messages are blanked so that lists compare without
    /// depending on wording; use ``exits(for:since:)`` or ``rawEvents(for:since:)`` for the full events.
    func events(for session: SessionID, since mark: Int = 0) -> [ServerEvent] {
        rawEvents(for: session, since: mark).map { event in
            switch event {
            case .exitRoom(var exit):
                exit.message = ""
                return .exitRoom(exit)
            case .forwardStreamStateChanged(var changed):
                changed.infos = changed.infos.map {
                    var info = $0
                    info.message = nil
                    return info
                }
                return .forwardStreamStateChanged(changed)
            case .connectOtherRoom(var connected):
                connected.message = ""
                return .connectOtherRoom(connected)
            default:
                return event
            }
        }
    }

    /// The events a session received since `mark`, exactly as the engine produced them.
    func rawEvents(for session: SessionID, since mark: Int = 0) -> [ServerEvent] {
        log[mark...].compactMap { action -> ServerEvent? in
            guard case .event(let target, let event) = action, target == session else { return nil }
            return event
        }
    }

    func events(for client: Client, since mark: Int = 0) -> [ServerEvent] { events(for: client.session, since: mark) }

    /// The onExitRoom events a session received since `mark`, with their messages.
    func exits(for client: Client, since mark: Int = 0) -> [ExitRoomEvent] {
        log[mark...].compactMap { action in
            guard case .event(let target, .exitRoom(let exit)) = action, target == client.session else { return nil }
            return exit
        }
    }

    /// The domain events since `mark`, in order.
    func domainEvents(since mark: Int = 0) -> [DomainEvent] {
        log[mark...].compactMap { action in
            guard case .domain(let event) = action else { return nil }
            return event
        }
    }

    /// The media-plane actions since `mark`, in order.
    func media(since mark: Int = 0) -> [MediaAction] {
        log[mark...].compactMap { action in
            guard case .media(let media) = action else { return nil }
            return media
        }
    }

    /// The sources added since `mark`.
    func addedSources(since mark: Int = 0) -> [SourceTrack] {
        media(since: mark).compactMap { if case .addSource(let source) = $0 { source } else { nil } }
    }

    /// The sinks added since `mark`.
    func addedSinks(since mark: Int = 0) -> [SinkTrack] {
        media(since: mark).compactMap { if case .addSink(let sink) = $0 { sink } else { nil } }
    }

    /// The ids of the sinks removed since `mark`.
    func removedSinks(since mark: Int = 0) -> [UInt32] {
        media(since: mark).compactMap { if case .removeSink(let id) = $0 { id } else { nil } }
    }

    /// The ids of the sources removed since `mark`.
    func removedSources(since mark: Int = 0) -> [UInt32] {
        media(since: mark).compactMap { if case .removeSource(let id) = $0 { id } else { nil } }
    }
}

extension EngineOutcome {
    var value: Success? { try? result.get() }

    var error: RelayError? {
        if case .failure(let error) = result { error } else { nil }
    }
}

/// Short constructors for the events tests expect, in the scenario's room.
extension ServerEvent {
    static func joined(_ userId: String, _ role: UserRole = .anchor, room: String = Scenario.room) -> ServerEvent {
        .userJoined(UserJoinedEvent(roomId: room, userId: userId, role: role))
    }

    static func left(_ userId: String, _ reason: LeaveReason, room: String = Scenario.room) -> ServerEvent {
        .userLeave(UserLeaveEvent(roomId: room, userId: userId, reason: reason))
    }

    static func published(_ userId: String, _ index: StreamIndex = .main, mediaType: Int = MediaType.audioAndVideo, room: String = Scenario.room) -> ServerEvent
    {
        .userPublishStream(UserPublishStreamEvent(roomId: room, userId: userId, streamIndex: index, mediaType: mediaType))
    }

    static func unpublished(
        _ userId: String, _ reason: UnpublishReason, _ index: StreamIndex = .main, mediaType: Int = MediaType.audioAndVideo,
        room: String = Scenario.room
    ) -> ServerEvent {
        .userUnpublishStream(UserUnpublishStreamEvent(roomId: room, userId: userId, streamIndex: index, mediaType: mediaType, reason: reason))
    }

    static func roomState(_ userId: String, joinType: Int = 0, room: String = Scenario.room) -> ServerEvent {
        .roomStateChanged(RoomStateChangedEvent(roomId: room, userId: userId, state: 0, joinType: joinType))
    }

    static func visibility(_ visible: Bool, errorCode: Int = 0, room: String = Scenario.room) -> ServerEvent {
        .userVisibilityChanged(UserVisibilityChangedEvent(roomId: room, visible: visible, errorCode: errorCode))
    }

    static func role(_ role: UserRole, errorCode: Int = 0, room: String = Scenario.room) -> ServerEvent {
        .switchRole(SwitchRoleEvent(roomId: room, role: role, errorCode: errorCode))
    }

    /// An onExitRoom as ``Scenario/events(for:since:)`` reports it (message blanked).
    static func exit(_ reason: ExitRoomReason, code: ErrorCode, room: String = Scenario.room) -> ServerEvent {
        .exitRoom(ExitRoomEvent(roomId: room, reason: reason, code: code.rawValue, message: ""))
    }

    /// The subscription result carried by an onStreamSubscribed event.
    var subscribed: SubscribeStreamResult? {
        if case .streamSubscribed(let result) = self { result } else { nil }
    }
}
