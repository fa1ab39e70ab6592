public import Auth
public import Foundation
public import Logging
public import MediaPlane
public import Protocol
public import RoomEngine

extension RelayCore {
    /// Handles one text message from a connection: parse, check, dispatch, answer. Whatever the
    /// input, the connection gets an answer and stays usable.
    public func handle(_ text: String, from session: SessionID) async {
        guard sessions[session] != nil, let withinRate = admitFrame(from: session) else { return }
        if text.utf8.count > configuration.maxMessageBytes {
            refusals.count(.messageSize)
            respond(
                nil,
                Result<EmptyResult, RelayError>.failure(
                    RelayError(.messageTooLarge, "message is \(text.utf8.count) bytes; the limit is \(configuration.maxMessageBytes)")), to: session)
            return
        }
        // One pass reads the frame's shape; the params are decoded from the same bytes later.
        let message = Data(text.utf8)
        let envelope: RequestEnvelope
        do {
            envelope = try JSONDecoder().decode(RequestEnvelope.self, from: message)
        } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
            // Valid JSON, but not an object (`null` among them).
            respond(
                nil, Result<EmptyResult, RelayError>.failure(RelayError(.invalidRequest, "a request is a JSON object with id, method and params")), to: session)
            return
        } catch {
            respond(nil, Result<EmptyResult, RelayError>.failure(RelayError(.parseError, "message is not valid JSON")), to: session)
            return
        }
        let id: RequestID?
        switch envelope.id {
        case .absent: id = nil
        case .valid(let valid): id = valid
        case .invalid:
            respond(nil, Result<EmptyResult, RelayError>.failure(RelayError(.invalidRequest, "id must be a whole number or a string")), to: session)
            return
        }
        guard let method = envelope.method else {
            respond(id, Result<EmptyResult, RelayError>.failure(RelayError(.invalidRequest, "method must be a string")), to: session)
            return
        }
        if !envelope.paramsIsObject {
            respond(id, Result<EmptyResult, RelayError>.failure(RelayError(.invalidParams, "params must be an object")), to: session)
            return
        }
        if !withinRate {
            respond(
                id,
                Result<EmptyResult, RelayError>.failure(
                    RelayError(.rateLimited, "more than \(configuration.requestsPerSecond) requests per second; slow down")), to: session)
            return
        }
        guard let known = Method(rawValue: method) else {
            respond(id, Result<EmptyResult, RelayError>.failure(RelayError(.methodNotFound, "unknown method '\(method)'")), to: session)
            return
        }
        sessions[session]?.answering[id] = method
        if known == .joinRoom {
            // In a cluster a join first finds its room's node (claiming the room here when nobody
            // serves it); the session may have gone while the database answered.
            guard await admitToCluster(id: id, request: message, session: session), sessions[session] != nil else { return }
        }
        if known == .invite {
            // An invitee whose room is on another node: invited through that node.
            guard await inviteAcrossNodes(id: id, request: message, session: session) else { return }
        }
        if known == .connectOtherRoom {
            // A peer room on another node: linked through that node.
            guard await connectAcrossNodes(id: id, request: message, session: session) else { return }
        }
        // Forward targets on other nodes are verified there first; what they answered belongs to
        // this request alone, and goes into its dispatch.
        var remoteTargets: [String: ForwardTargetRequest] = [:]
        if known == .startForwardStreamToRooms || known == .updateForwardStreamToRooms {
            remoteTargets = await routeForwardTargets(request: message, session: session)
            guard sessions[session] != nil else { return }
        }
        let started = ContinuousClock.now
        dispatch(known, id: id, request: message, session: session, remoteTargets: remoteTargets)
        let elapsed = ContinuousClock.now - started
        metrics.requestHandled(method: method, nanoseconds: elapsed.components.seconds &* 1_000_000_000 &+ elapsed.components.attoseconds / 1_000_000_000)
    }

    /// Takes a token for one frame of any kind. Returns whether the frame is within the rate,
    /// or nil when the connection was closed: a client that sends more than twice
    /// `control.requestsPerSecond` frames within one second while refused is not reading its
    /// errors, and answering it would only cost the relay more.
    func admitFrame(from session: SessionID) -> Bool? {
        let nowMs = nowMs()
        if sessions[session]!.limiter.allow(nowMs: nowMs) { return true }
        refusals.count(.requestRate)
        if nowMs - sessions[session]!.refusalWindowStartMs >= 1000 {
            sessions[session]!.refusalWindowStartMs = nowMs
            sessions[session]!.refusalsInWindow = 0
        }
        sessions[session]!.refusalsInWindow += 1
        guard sessions[session]!.refusalsInWindow > configuration.requestsPerSecond * 2 else { return false }
        refusals.count(.requestFlood)
        logger.warning(
            "client goes on sending while refused; closing its connection",
            metadata: [
                "session": "\(session)", "user": "\(sessions[session]!.userId ?? "-")",
            ])
        disconnect(
            session, close: .policyViolation("more than \(configuration.requestsPerSecond * 2) frames in one second after the rate limit refused them"),
            cutting: true)
        return nil
    }

    /// Decodes the `params` of `request` (a whole request message that passed the frame checks)
    /// as `type`; missing or `null` params are decoded as an empty object.
    func decode<Params: Decodable>(_ type: Params.Type, from request: Data) -> Result<Params, RelayError> {
        do {
            if let params = try JSONDecoder().decode(RequestParams<Params>.self, from: request).params { return .success(params) }
        } catch let error as DecodingError {
            // Paths inside the message start with `params`, which the message names as its root.
            return .failure(RelayError(.invalidParams, error.message(root: "params", droppingFirst: 1)))
        } catch {
            return .failure(RelayError(.invalidParams, "params are invalid"))
        }
        do {
            return .success(try JSONDecoder().decode(type, from: Data("{}".utf8)))
        } catch let error as DecodingError {
            return .failure(RelayError(.invalidParams, error.parameterMessage))
        } catch {
            return .failure(RelayError(.invalidParams, "params are invalid"))
        }
    }

    /// Decodes the request's params and runs it; `remoteTargets` are the forward targets other
    /// cluster nodes verified for it.
    func dispatch(_ method: Method, id: RequestID?, request: Data, session: SessionID, remoteTargets: [String: ForwardTargetRequest] = [:]) {
        func run<Params: Decodable, Success: Encodable & Sendable>(_ type: Params.Type, _ body: (Params) -> EngineOutcome<Success>) {
            switch decode(type, from: request) {
            case .failure(let error):
                respond(id, Result<EmptyResult, RelayError>.failure(error), to: session)
            case .success(let decoded):
                let outcome = body(decoded)
                respond(id, outcome.result, to: session)
                apply(outcome.actions)
            }
        }
        let time = now
        switch method {
        case .joinRoom: run(JoinRoomParams.self) { join($0, session: session) }
        case .leaveRoom: run(RoomParams.self) { engine.leave(session: session, roomId: $0.roomId, now: time) }
        case .switchRole: run(SwitchRoleParams.self) { switchRole($0, session: session, now: time) }
        case .setUserVisibility: run(SetUserVisibilityParams.self) { engine.setVisibility(session: session, params: $0, now: time) }
        case .updateToken: run(UpdateTokenParams.self) { updateToken($0, session: session) }
        case .createTransport: run(CreateTransportParams.self) { createTransport($0, session: session) }
        case .connectTransport: run(ConnectTransportParams.self) { connectTransport($0, session: session) }
        case .closeTransport: run(TransportParams.self) { closeTransport($0, session: session) }
        case .publishStream:
            run(PublishStreamParams.self) { (params: PublishStreamParams) -> EngineOutcome<PublishStreamResult> in
                let named = [params.transportId] + params.tracks.compactMap(\.transportId)
                if let receiveOnly = named.first(where: { sessions[session]?.receiveOnlyTransports.contains($0) == true }) {
                    return EngineOutcome(
                        result: .failure(
                            RelayError(.invalidParams, "transport \(receiveOnly) was created receiveOnly; publish on a transport created without it")),
                        actions: [])
                }
                if let offer = params.sdp { return publishWithOffer(params, offer: offer, session: session) }
                if webRTC[params.transportId] != nil || params.tracks.contains(where: { $0.transportId.map { webRTC[$0] != nil } ?? false }) {
                    return EngineOutcome(
                        result: .failure(RelayError(.invalidParams, "publishing on a WebRTC transport needs params.sdp (the client's offer)")), actions: [])
                }
                // A rid is learnt from a WebRTC offer; an SRTP track is known by its SSRC alone.
                if let position = params.tracks.firstIndex(where: { $0.rid != nil }) {
                    return EngineOutcome(
                        result: .failure(
                            RelayError(.invalidParams, "tracks[\(position)].rid is set by the relay from a WebRTC offer; SRTP tracks name their ssrc")),
                        actions: [])
                }
                return engine.publish(session: session, params: params, now: time)
            }
        case .answerTransportOffer: run(AnswerTransportOfferParams.self) { answerTransportOffer($0, session: session) }
        case .restartIce: run(RestartIceParams.self) { restartIce($0, session: session) }
        case .unpublishStream: run(StreamParams.self) { engine.unpublish(session: session, params: $0, now: time) }
        case .subscribeStream:
            run(SubscribeStreamParams.self) { (params: SubscribeStreamParams) -> EngineOutcome<SubscribeStreamResult> in
                for id in [params.transportId, params.audioTransportId, params.videoTransportId].compactMap({ $0 }) where webRTC[id]?.purpose == .publish {
                    return EngineOutcome(
                        result: .failure(RelayError(.transportState, "transport \(id) publishes; receive on a WebRTC transport of its own")), actions: [])
                }
                return engine.subscribe(session: session, params: params, now: time)
            }
        case .unsubscribeStream: run(SubscribeStreamParams.self) { engine.unsubscribe(session: session, params: $0, now: time) }
        case .setRemoteVideoStreamType: run(SetRemoteVideoStreamTypeParams.self) { engine.setRemoteVideoStreamType(session: session, params: $0, now: time) }
        case .setSubscribeFallbackOption: run(SetSubscribeFallbackOptionParams.self) { setSubscribeFallbackOption($0, session: session) }
        case .setRemoteUserPriority: run(SetRemoteUserPriorityParams.self) { setRemoteUserPriority($0, session: session) }
        case .setRemoteVideoConfig: run(SetRemoteVideoConfigParams.self) { setRemoteVideoConfig($0, session: session) }
        case .getStats: run(GetStatsParams.self) { EngineOutcome(result: .success(stats(for: session, roomId: $0.roomId)), actions: []) }
        case .startForwardStreamToRooms:
            run(StartForwardParams.self) {
                engine.startForward(session: session, roomId: $0.roomId, targets: verifyTargets($0, session: session, remote: remoteTargets), now: time)
            }
        case .updateForwardStreamToRooms:
            run(StartForwardParams.self) {
                engine.updateForward(session: session, roomId: $0.roomId, targets: verifyTargets($0, session: session, remote: remoteTargets), now: time)
            }
        case .stopForwardStreamToRooms: run(RoomParams.self) { engine.stopForward(session: session, roomId: $0.roomId, now: time) }
        case .pauseForwardStreamToAllRooms: run(RoomParams.self) { engine.pauseForward(session: session, roomId: $0.roomId, paused: true, now: time) }
        case .resumeForwardStreamToAllRooms: run(RoomParams.self) { engine.pauseForward(session: session, roomId: $0.roomId, paused: false, now: time) }
        case .connectOtherRoom: run(ConnectOtherRoomParams.self) { engine.connectOtherRoom(session: session, params: $0, now: time) }
        case .disconnectOtherRoom: run(LocalRoomParams.self) { engine.disconnectOtherRoom(session: session, localRoomId: $0.localRoomId, now: time) }
        case .updateOtherRoomForwardMode:
            run(UpdateOtherRoomForwardModeParams.self) { engine.updateOtherRoomForwardMode(session: session, params: $0, now: time) }
        case .invite: run(InviteParams.self) { engine.invite(session: session, params: $0, now: time) }
        case .cancelInvitation: run(InvitationParams.self) { engine.cancelInvitation(session: session, params: $0, now: time) }
        case .acceptInvitation: run(InvitationParams.self) { engine.acceptInvitation(session: session, params: $0, now: time) }
        case .rejectInvitation: run(RejectInvitationParams.self) { engine.rejectInvitation(session: session, params: $0, now: time) }
        case .sendRoomMessage:
            run(SendRoomMessageParams.self) { params in
                withPayload(text: params.message, binary: params.binary) {
                    engine.sendRoomMessage(session: session, roomId: params.roomId, payload: $0, toLinkedRooms: params.toLinkedRooms ?? false, now: time)
                }
            }
        case .sendUserMessage:
            run(SendUserMessageParams.self) { params in
                withPayload(text: params.message, binary: params.binary) {
                    engine.sendUserMessage(session: session, roomId: params.roomId, userId: params.userId, payload: $0, now: time)
                }
            }
        case .enableAudioPropertiesReport: run(EnableAudioPropertiesReportParams.self) { enableAudioPropertiesReport($0, session: session) }
        }
    }

    /// Verifies the token for this room and user and joins.
    func join(_ params: JoinRoomParams, session: SessionID) -> EngineOutcome<JoinRoomResult> {
        func refuse(_ error: RelayError) -> EngineOutcome<JoinRoomResult> {
            let event = ServerEvent.roomStateChanged(
                RoomStateChangedEvent(roomId: params.roomId, userId: params.userId, state: error.code.rawValue, joinType: 0))
            // A room taken up here as an edge for this join, which nobody watches after all.
            return EngineOutcome(result: .failure(error), actions: [.event(session, event)] + engine.releaseEdgeRoomIfUnwatched(params.roomId))
        }
        guard accepting else { return refuse(RelayError(.shuttingDown, "the relay is shutting down; join another relay")) }
        guard sessions[session]?.joinLimiter.allow(nowMs: nowMs()) ?? false else {
            refusals.count(.joinRate)
            return refuse(RelayError(.rateLimited, "more than \(configuration.joinsPerSecond) joins per second on this connection; slow down"))
        }
        if let problem = RelayIdentifier.problem(with: params.roomId) { return refuse(RelayError(.invalidParams, "params.roomId \(problem)")) }
        if let problem = RelayIdentifier.problem(with: params.userId) { return refuse(RelayError(.invalidParams, "params.userId \(problem)")) }
        if let fixed = sessions[session]?.userId, fixed != params.userId {
            return refuse(RelayError(.invalidParams, "this connection is user '\(fixed)'; open another connection for '\(params.userId)'"))
        }
        let claims: TokenClaims
        switch verifier.verify(params.token, roomId: params.roomId, userId: params.userId, nowSeconds: nowMs() / 1000) {
        case .failure(let error): return refuse(error)
        case .success(let verified): claims = verified
        }
        let request = JoinRequest(
            session: session, roomId: params.roomId, userId: params.userId, role: params.role ?? .anchor,
            visible: params.visible ?? true, roomConfig: params.roomConfig ?? RoomConfig(), grants: Self.grants(of: claims))
        var outcome = engine.join(request, now: now)
        if case .failure = outcome.result { outcome.actions += engine.releaseEdgeRoomIfUnwatched(params.roomId) }
        if case .success = outcome.result {
            sessions[session]?.userId = params.userId
            // Transports opened before the join go to the room's shard, before the join's
            // subscriptions reach the media plane.
            if let state = sessions[session] {
                let receiving = request.role == .audience ? Set(state.transports.keys) : state.receiveOnlyTransports
                media.place(transports: Array(state.transports.keys), group: params.roomId, receiving: receiving)
            }
        }
        return outcome
    }

    func updateToken(_ params: UpdateTokenParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        guard let userId = engine.userId(of: session, roomId: params.roomId) else {
            return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(params.roomId)'")), actions: [])
        }
        switch verifier.verify(params.token, roomId: params.roomId, userId: userId, nowSeconds: nowMs() / 1000) {
        case .failure(let error):
            return EngineOutcome(result: .failure(error), actions: [])
        case .success(let claims):
            return engine.updateToken(session: session, roomId: params.roomId, grants: Self.grants(of: claims), now: now)
        }
    }

    static func grants(of claims: TokenClaims) -> TokenGrants {
        let grants = claims.effectiveGrants
        return TokenGrants(
            publish: grants.canPublish, subscribe: grants.canSubscribe, forward: grants.canForward, hidden: grants.isHidden,
            expiresAt: EngineTime(seconds: claims.exp),
            publishExpiresAt: grants.publishExpiresAt.map { EngineTime(seconds: min($0, claims.exp)) }, mediaAddress: grants.vouchesForMediaAddress)
    }
}

extension RelayCore {
    /// Binary frames carry nothing in this protocol: answer with an error, keep the connection.
    public func handleBinary(from session: SessionID) {
        guard sessions[session] != nil, admitFrame(from: session) != nil else { return }
        respond(nil, Result<EmptyResult, RelayError>.failure(RelayError(.invalidRequest, "binary frames are not accepted; send JSON text frames")), to: session)
    }
}
