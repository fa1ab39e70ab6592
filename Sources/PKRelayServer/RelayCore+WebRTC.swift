public import ICE
public import Logging
public import MediaPlane
public import Protocol
public import RoomEngine
public import SDP
public import SecureTransport

/// WebRTC transports: the relay core opens them, routes their requests and the data plane's
/// events to their ``WebRTCSession``s, and carries out what those sessions decide.
extension RelayCore {
    /// Opens a WebRTC transport with fresh ICE credentials on the shard of `room` (by default
    /// its session's first room; the least loaded shard without one), whose WebRTC port goes
    /// into the result and every SDP of it. Its audio levels go under `audioLevelExtensionId`
    /// (the relay's offers name it; a player's offer names its own, or none: 0 writes none).
    /// A `receiving` transport may go to another shard when the room outgrew its own; a
    /// `receiveOnly` one also refuses publishing.
    func createWebRTCTransport(
        session: SessionID, room: String? = nil, audioLevelExtensionId: UInt8? = nil, receiving: Bool = false, receiveOnly: Bool = false
    ) -> EngineOutcome<CreateTransportResult> {
        func fail(_ error: RelayError) -> EngineOutcome<CreateTransportResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let dtlsContext, !media.webRTCPorts.isEmpty else {
            return fail(RelayError(.unsupported, "WebRTC is off on this relay (media.webrtcEnabled)"))
        }
        let credentials = ICECredentials.random()
        switch media.openWebRTCTransport(
            credentials: credentials, audioLevelExtensionId: audioLevelExtensionId ?? negotiator.capabilities.subscriptionAudioLevelExtensionID,
            group: room ?? engine.rooms(of: session).first, receiving: receiving)
        {
        case .failure(let error):
            return fail(RelayError(.internalError, "could not open a WebRTC transport: \(error)"))
        case .success(let opened):
            let id = opened.id
            sessions[session]?.transports[id] = opened.port
            if receiveOnly { sessions[session]?.receiveOnlyTransports.insert(id) }
            engine.transportCreated(session: session, transportId: id, kind: .webRTC)
            webRTC[id] = WebRTCSession(id: id, session: session, credentials: credentials, sdpSessionID: UInt64.random(in: 1...UInt64(Int64.max)))
            let fingerprint = dtlsContext.certificate.fingerprint
            let result = CreateTransportResult(
                transportId: id, kind: "webrtc", ip: media.announcedAddress, port: opened.port, srtp: nil,
                ice: ICEParameters(usernameFragment: credentials.ufrag, password: credentials.password),
                dtls: DTLSParameters(
                    role: "server", fingerprint: FingerprintParameters(algorithm: fingerprint.algorithm.rawValue, value: Self.hexPairs(fingerprint.digest))),
                iceServers: iceServers(forTransport: id, session: session))
            return EngineOutcome(result: .success(result), actions: [])
        }
    }

    /// The STUN and TURN servers a new WebRTC transport's client gets, TURN credentials minted
    /// for its user (or the transport, before the connection has joined); nil when none are
    /// configured.
    func iceServers(forTransport id: Int, session: SessionID) -> [ICEServer]? {
        guard !configuration.iceServers.isEmpty else { return nil }
        let owner = sessions[session]?.userId ?? "transport-\(id)"
        return TURNRESTCredentials.servers(configuration.iceServers, id: owner, nowSeconds: nowMs() / 1000, validSeconds: configuration.iceCredentialSeconds)
    }

    /// The WebRTC port of a transport of `session`: its shard's, as createTransport gave it.
    func webRTCPort(of transportId: Int, session: SessionID) -> Int? {
        webRTC[transportId] != nil ? sessions[session]?.transports[transportId] : nil
    }

    /// The relay's side of a transport as SDP describes it.
    func relayDescription(of session: WebRTCSession) -> RelayTransportDescription? {
        guard let dtlsContext, let port = webRTCPort(of: session.id, session: session.session) else { return nil }
        let fingerprint = dtlsContext.certificate.fingerprint
        return RelayTransportDescription(
            iceUsernameFragment: session.credentials.ufrag, icePassword: session.credentials.password,
            fingerprint: SDPFingerprint(algorithm: fingerprint.algorithm.rawValue, bytes: fingerprint.digest),
            candidateAddress: media.announcedAddress, candidatePort: UInt16(port), offersTCP: media.offersICETCP,
            candidateAddress6: media.announcedAddress6, sessionID: session.sdpSessionID,
            sessionVersion: 1)
    }

    /// publishStream with an SDP offer: the tracks come from the offer, the result carries the answer.
    func publishWithOffer(_ params: PublishStreamParams, offer: String, session: SessionID) -> EngineOutcome<PublishStreamResult> {
        func fail(_ error: RelayError) -> EngineOutcome<PublishStreamResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let state = webRTC[params.transportId], state.session == session else {
            return fail(
                RelayError(
                    .transportNotFound,
                    "transport \(params.transportId) is not a WebRTC transport of this connection; create one with createTransport {kind: \"webrtc\"}"))
        }
        guard let relay = relayDescription(of: state), let dtlsContext else { return fail(RelayError(.unsupported, "WebRTC is off on this relay")) }
        let negotiation: PublishNegotiation
        switch state.negotiatePublish(offer: offer, negotiator: negotiator, relay: relay) {
        case .failure(let error): return fail(error)
        case .success(let negotiated): negotiation = negotiated
        }
        var engineParams = params
        engineParams.tracks = negotiation.tracks
        let outcome = engine.publish(session: session, params: engineParams, ridExtensionId: negotiation.ridExtensionId, now: now)
        guard case .success(var result) = outcome.result else { return outcome }
        result.sdp = negotiation.answerSDP
        let effects = webRTC[params.transportId]!.published(negotiation, context: dtlsContext)
        run(effects, transport: params.transportId, session: session)
        return EngineOutcome(result: .success(result), actions: outcome.actions)
    }

    /// answerTransportOffer: the client accepted (or declined parts of) the relay's offer.
    func answerTransportOffer(_ params: AnswerTransportOfferParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        func fail(_ error: RelayError) -> EngineOutcome<EmptyResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard webRTC[params.transportId]?.session == session, let dtlsContext else {
            return fail(RelayError(.transportNotFound, "transport \(params.transportId) is not a WebRTC transport of this connection"))
        }
        switch webRTC[params.transportId]!.answer(revision: params.revision, sdp: params.sdp, negotiator: negotiator, context: dtlsContext) {
        case .failure(let error):
            return fail(error)
        case .success(let (facts, effects)):
            run(effects, transport: params.transportId, session: session)
            // Tracks that changed while this offer was out are offered now.
            sendOffers([params.transportId])
            return EngineOutcome(result: .success(EmptyResult()), actions: engine.subscriptionAnswered(transportId: params.transportId, facts: facts))
        }
    }

    /// restartIce: an ICE restart of a WebRTC transport of this connection.
    func restartIce(_ params: RestartIceParams, session: SessionID) -> EngineOutcome<RestartIceResult> {
        func fail(_ error: RelayError) -> EngineOutcome<RestartIceResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let state = webRTC[params.transportId], state.session == session, let relay = relayDescription(of: state) else {
            return fail(RelayError(.transportNotFound, "transport \(params.transportId) is not a WebRTC transport of this connection"))
        }
        if let offer = params.sdp {
            switch webRTC[params.transportId]!.restartPublishing(offer: offer, negotiator: negotiator, relay: relay) {
            case .failure(let error): return fail(error)
            case .success(let (sdp, effects)):
                run(effects, transport: params.transportId, session: session)
                return EngineOutcome(result: .success(RestartIceResult(sdp: sdp)), actions: [])
            }
        }
        if case .failure(let error) = webRTC[params.transportId]!.restartReceiving() { return fail(error) }
        // The offer with the new credentials goes now, or after the answer to the one outstanding.
        let waiting = webRTC[params.transportId]!.pendingOffer != nil
        sendOffers([params.transportId])
        let revision = webRTC[params.transportId].map { waiting ? $0.revision + 1 : $0.revision }
        return EngineOutcome(result: .success(RestartIceResult(revision: revision)), actions: [])
    }

    /// News from the data plane about WebRTC transports.
    public func handleMediaEvent(_ event: MediaPlaneEvent) {
        switch event {
        case .iceSelected(let id, let remote):
            webRTC[id]?.iceSelected(remote)
        case .dtlsDatagram(let id, let datagram, let from):
            guard let session = webRTC[id]?.session else { return }
            run(webRTC[id]!.receive(datagram, from: from), transport: id, session: session)
        case .iceExpired(let id, let neverConnected):
            guard let session = webRTC[id]?.session else { return }
            run(
                webRTC[id]!.iceExpired(neverConnected: neverConnected, timeoutSeconds: Int(configuration.media.iceTimeoutMs / 1000)), transport: id,
                session: session)
        case .estimateDropped(let id, let bps):
            estimateDropped(transportId: id, bps: bps)
        case .reportedLoss(let id, let fraction):
            reportedLoss(transportId: id, lossFraction: fraction)
        }
    }

    /// DTLS retransmissions, from the relay's timer.
    func runWebRTCTimers() {
        for id in webRTC.keys.sorted() {
            guard let session = webRTC[id]?.session else { continue }
            run(webRTC[id]!.timerFired(), transport: id, session: session)
        }
    }

    /// Carries out what a WebRTC session decided, in order.
    func run(_ effects: [WebRTCEffect], transport id: Int, session: SessionID) {
        for effect in effects {
            switch effect {
            case .send(let datagrams, let remote):
                for datagram in datagrams { media.sendWebRTCDatagram(datagram, to: remote, transportId: id) }
            case .setRemoteICECredentials(let credentials):
                media.setRemoteICECredentials(transportId: id, credentials: credentials)
            case .restartICE(let local, let remote):
                media.restartICE(transportId: id, local: local, remote: remote)
                logger.info("webrtc transport restarted ICE", metadata: ["transport": "\(id)"])
            case .connectMedia(let inbound, let outbound, let profile):
                media.connectWebRTCTransport(id: id, inbound: inbound, outbound: outbound)
                logger.info("webrtc transport connected", metadata: ["transport": "\(id)", "profile": "\(profile.rawValue)"])
            case .congestionControl(let spec):
                media.setCongestionControl(transportId: id, spec)
            case .event(let event):
                send(event, to: session)
            case .ended(let unpublishReason, let reason):
                webRTC[id] = nil
                logger.info("webrtc transport closed", metadata: ["transport": "\(id)", "reason": "\(reason)"])
                guard sessions[session]?.transports.removeValue(forKey: id) != nil else { continue }
                sessions[session]?.receiveOnlyTransports.remove(id)
                apply(engine.transportClosed(session: session, transportId: id, reason: unpublishReason, now: now))
            }
        }
    }

    /// Offers each receiving transport whose tracks changed its new tracks (nothing while an
    /// offer is unanswered: the answer brings the next one).
    func sendOffers(_ transports: Set<Int>) {
        for id in transports.sorted() {
            guard let state = webRTC[id], let relay = relayDescription(of: state) else { continue }
            switch webRTC[id]!.nextOffer(negotiator: negotiator, relay: relay) {
            case nil: continue
            case .success(let offer)?: send(.transportOffer(offer), to: state.session)
            case .failure(let error)?: logger.error("could not build a WebRTC offer", metadata: ["transport": "\(id)", "error": "\(error.message)"])
            }
        }
    }

    static func hexPairs(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: ":")
    }
}
