import Protocol
import RoomEngine
import Testing

/// Scenario helpers for the cross-room features: forwarding, PK links, invitations, messages and
/// first-keyframe watches. Rooms are named explicitly ("r1", "r2", ...) in these scenarios.

/// A forward target as a test writes it: a room and either verified grants (default: the
/// scenario's usual grants at the time of the call) or a token error.
struct Target {
    var roomId: String
    var grants: TokenGrants?
    var error: RelayError?

    static func ok(_ roomId: String, _ grants: TokenGrants? = nil) -> Target { Target(roomId: roomId, grants: grants) }

    static func bad(_ roomId: String, _ code: ErrorCode = .invalidToken, _ message: String = "signature mismatch") -> Target {
        Target(roomId: roomId, error: RelayError(code, message))
    }
}

extension Scenario {
    // MARK: Forwarding

    func requests(_ targets: [Target]) -> [ForwardTargetRequest] {
        targets.map { target in
            if let error = target.error { return ForwardTargetRequest(roomId: target.roomId, grants: .failure(error)) }
            return ForwardTargetRequest(roomId: target.roomId, grants: .success(target.grants ?? grants()))
        }
    }

    @discardableResult
    mutating func startForward(_ client: Client, room: String, _ targets: [Target]) -> EngineOutcome<ForwardStreamResult> {
        record(engine.startForward(session: client.session, roomId: room, targets: requests(targets), now: now))
    }

    @discardableResult
    mutating func updateForward(_ client: Client, room: String, _ targets: [Target]) -> EngineOutcome<ForwardStreamResult> {
        record(engine.updateForward(session: client.session, roomId: room, targets: requests(targets), now: now))
    }

    @discardableResult
    mutating func stopForward(_ client: Client, room: String) -> EngineOutcome<ForwardStreamResult> {
        record(engine.stopForward(session: client.session, roomId: room, now: now))
    }

    @discardableResult
    mutating func pauseForward(_ client: Client, room: String, _ paused: Bool = true) -> EngineOutcome<ForwardStreamResult> {
        record(engine.pauseForward(session: client.session, roomId: room, paused: paused, now: now))
    }

    // MARK: Links

    @discardableResult
    mutating func connectOtherRoom(_ client: Client, room: String? = nil, to peerRoom: String, _ peerUser: String) -> EngineOutcome<ConnectOtherRoomEvent> {
        record(
            engine.connectOtherRoom(session: client.session, params: ConnectOtherRoomParams(roomId: peerRoom, userId: peerUser, localRoomId: room), now: now))
    }

    @discardableResult
    mutating func disconnectOtherRoom(_ client: Client, room: String? = nil) -> EngineOutcome<EmptyResult> {
        record(engine.disconnectOtherRoom(session: client.session, localRoomId: room, now: now))
    }

    @discardableResult
    mutating func forwardMode(
        _ client: Client, room: String? = nil, peerRoom: String, _ peerUser: String, muteAudio: Bool? = nil, muteVideo: Bool? = nil,
        muteSubStream: Bool? = nil
    ) -> EngineOutcome<EmptyResult> {
        let params = UpdateOtherRoomForwardModeParams(
            roomId: peerRoom, userId: peerUser, muteAudio: muteAudio, muteVideo: muteVideo, muteSubStream: muteSubStream, localRoomId: room)
        return record(engine.updateOtherRoomForwardMode(session: client.session, params: params, now: now))
    }

    // MARK: Invitations

    @discardableResult
    mutating func invite(
        _ client: Client, room: String? = nil, to peerRoom: String, _ peerUser: String, payload: String? = nil, timeoutSeconds: Int? = nil,
        autoLink: Bool? = nil
    ) -> EngineOutcome<InviteResult> {
        let params = InviteParams(roomId: peerRoom, userId: peerUser, localRoomId: room, payload: payload, timeoutSeconds: timeoutSeconds, autoLink: autoLink)
        return record(engine.invite(session: client.session, params: params, now: now))
    }

    @discardableResult
    mutating func accept(_ client: Client, _ inviteId: String, payload: String? = nil) -> EngineOutcome<EmptyResult> {
        record(engine.acceptInvitation(session: client.session, params: InvitationParams(inviteId: inviteId, payload: payload), now: now))
    }

    @discardableResult
    mutating func reject(_ client: Client, _ inviteId: String, reason: String? = nil, payload: String? = nil) -> EngineOutcome<EmptyResult> {
        record(engine.rejectInvitation(session: client.session, params: RejectInvitationParams(inviteId: inviteId, reason: reason, payload: payload), now: now))
    }

    @discardableResult
    mutating func cancel(_ client: Client, _ inviteId: String, payload: String? = nil) -> EngineOutcome<EmptyResult> {
        record(engine.cancelInvitation(session: client.session, params: InvitationParams(inviteId: inviteId, payload: payload), now: now))
    }

    // MARK: Messages

    @discardableResult
    mutating func roomMessage(_ client: Client, room: String, _ text: String, toLinkedRooms: Bool = false) -> EngineOutcome<EmptyResult> {
        let payload = MessagePayload(text: text, base64: nil, byteCount: text.utf8.count)
        return record(engine.sendRoomMessage(session: client.session, roomId: room, payload: payload, toLinkedRooms: toLinkedRooms, now: now))
    }

    @discardableResult
    mutating func roomMessage(_ client: Client, room: String, payload: MessagePayload, toLinkedRooms: Bool = false) -> EngineOutcome<EmptyResult> {
        record(engine.sendRoomMessage(session: client.session, roomId: room, payload: payload, toLinkedRooms: toLinkedRooms, now: now))
    }

    @discardableResult
    mutating func userMessage(_ client: Client, room: String, to userId: String, _ text: String) -> EngineOutcome<EmptyResult> {
        let payload = MessagePayload(text: text, base64: nil, byteCount: text.utf8.count)
        return record(engine.sendUserMessage(session: client.session, roomId: room, userId: userId, payload: payload, now: now))
    }

    // MARK: First keyframe

    @discardableResult
    mutating func keyframeDelivered(_ watch: FirstKeyframeWatch) -> [EngineAction] {
        record(actions: engine.firstKeyframeDelivered(watch, at: now))
    }

    // MARK: Media bookkeeping

    /// What the media plane would still hold after replaying the log from `mark`: sinks added and
    /// not removed, sinks still bound, sources added and not removed, and binds that named a
    /// source the media plane did not have (never added since `mark`, or already removed).
    func mediaLeft(since mark: Int = 0) -> (sinks: Set<UInt32>, bound: Set<UInt32>, sources: Set<UInt32>, badBinds: [UInt32]) {
        var sinks = Set<UInt32>()
        var bound = Set<UInt32>()
        var sources = Set<UInt32>()
        var removedSources = Set<UInt32>()
        var badBinds: [UInt32] = []
        for action in media(since: mark) {
            switch action {
            case .addSink(let sink): sinks.insert(sink.id)
            case .removeSink(let id):
                sinks.remove(id)
                if bound.contains(id) { badBinds.append(id) }
            case .bind(let sink, let source), .switchSource(let sink, let source):
                if !sinks.contains(sink) || removedSources.contains(source) { badBinds.append(sink) }
                bound.insert(sink)
            case .unbind(let sink): bound.remove(sink)
            case .addSource(let source): sources.insert(source.id)
            case .removeSource(let id):
                sources.remove(id)
                removedSources.insert(id)
            case .setSinkPayloadType, .setSinkRetransmission, .restartSinkAtKeyframe, .closeTransport: break
            }
        }
        return (sinks, bound, sources, badBinds)
    }

    /// The (sink, source) binds since `mark`.
    func binds(since mark: Int = 0) -> [(sink: UInt32, source: UInt32)] {
        media(since: mark).compactMap { if case .bind(let sink, let source) = $0 { (sink, source) } else { nil } }
    }

    /// Records an issue unless nothing of any forward or link is left.
    func expectNoForwardingLeft(sourceLocation: SourceLocation = #_sourceLocation) {
        let totals = engine.forwardingTotals
        #expect(totals.forwardTargets == 0 && totals.links == 0, "forwardingTotals \(totals)", sourceLocation: sourceLocation)
        #expect(engine.firstKeyframeWatches().isEmpty, sourceLocation: sourceLocation)
    }
}

/// Short constructors for the cross-room events. Messages are left out: ``Scenario/events(for:since:)``
/// blanks them.
extension ServerEvent {
    /// A mirror of `userId` appearing in `room`, forwarded or linked from `from`.
    static func mirrorJoined(_ userId: String, from: String, room: String, _ role: UserRole = .anchor) -> ServerEvent {
        .userJoined(UserJoinedEvent(roomId: room, userId: userId, role: role, forwardedFrom: from))
    }

    /// onForwardStreamStateChanged with (target room, state, error) triples.
    static func forwardState(_ roomId: String, _ userId: String, _ infos: [(String, ForwardState, Int)]) -> ServerEvent {
        .forwardStreamStateChanged(
            ForwardStreamStateChangedEvent(
                roomId: roomId, userId: userId, infos: infos.map { ForwardStreamStateInfo(roomId: $0.0, state: $0.1.rawValue, error: $0.2) }))
    }

    /// onForwardStreamEvent with (target room, event) pairs; "" is every target.
    static func forwardEvent(_ roomId: String, _ userId: String, _ infos: [(String, ForwardEvent)]) -> ServerEvent {
        .forwardStreamEvent(
            ForwardStreamEventEvent(
                roomId: roomId, userId: userId, infos: infos.map { ForwardStreamEventInfo(roomId: $0.0, event: $0.1.rawValue) }))
    }

    static func connected(_ roomId: String, peerRoom: String, _ peerUser: String, errorCode: Int = 0) -> ServerEvent {
        .connectOtherRoom(ConnectOtherRoomEvent(roomId: roomId, peerRoomId: peerRoom, peerUserId: peerUser, errorCode: errorCode, message: ""))
    }

    static func disconnected(_ roomId: String, peerRoom: String, _ peerUser: String, reason: String) -> ServerEvent {
        .disconnectOtherRoom(DisconnectOtherRoomEvent(roomId: roomId, peerRoomId: peerRoom, peerUserId: peerUser, reason: reason, errorCode: 0))
    }

    static func invitation(
        _ inviteId: String, _ side: String, _ state: InvitationState, room: String, peerRoom: String, _ peerUser: String,
        reason: String? = nil, payload: String? = nil
    ) -> ServerEvent {
        .invitationStateChanged(
            InvitationStateChangedEvent(
                inviteId: inviteId, side: side, state: state.rawValue, roomId: room, peerRoomId: peerRoom, peerUserId: peerUser, reason: reason,
                payload: payload))
    }

    static func roomMessage(_ text: String, from userId: String, room: String, fromRoom: String? = nil) -> ServerEvent {
        .roomMessageReceived(MessageReceivedEvent(roomId: room, fromRoomId: fromRoom ?? room, userId: userId, message: text, binary: nil))
    }

    static func userMessage(_ text: String, from userId: String, room: String, fromRoom: String? = nil) -> ServerEvent {
        .userMessageReceived(MessageReceivedEvent(roomId: room, fromRoomId: fromRoom ?? room, userId: userId, message: text, binary: nil))
    }
}
