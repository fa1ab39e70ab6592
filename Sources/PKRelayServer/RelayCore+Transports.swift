import Logging
import MediaPlane
import Protocol
import RoomEngine
import SecureTransport

extension RelayCore {
    /// Opens a media transport on a free port and returns the relay's address and SDES key.
    func createTransport(_ params: CreateTransportParams, session: SessionID) -> EngineOutcome<CreateTransportResult> {
        func fail(_ error: RelayError) -> EngineOutcome<CreateTransportResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let state = sessions[session] else { return fail(RelayError(.internalError, "connection closed")) }
        guard state.transports.count < configuration.maxTransportsPerConnection else {
            refusals.count(.transportsPerConnection)
            return fail(RelayError(.tooManyTransports, "a connection may open at most \(configuration.maxTransportsPerConnection) transports"))
        }
        if let room = params.roomId, let problem = RelayIdentifier.problem(with: room) { return fail(RelayError(.invalidParams, "params.roomId \(problem)")) }
        // A room's transports share a shard, so a room without forwards never crosses shards.
        let room = params.roomId ?? engine.rooms(of: session).first
        // A transport that only subscribes may leave a popular room's shard; an audience
        // member's transports can publish only after a switchRole, and then still work from
        // another shard, through the pipes.
        let receiving = params.receiveOnly == true || room.map { engine.role(of: session, roomId: $0) == .audience } == true
        switch params.kind {
        case nil, "srtp"?: break
        case "webrtc"?:
            if params.srtpProfile != nil {
                return fail(RelayError(.invalidParams, "srtpProfile is for srtp transports; WebRTC negotiates its profile in DTLS"))
            }
            if params.transportWideSequenceExtensionId != nil {
                return fail(
                    RelayError(
                        .invalidParams, "transportWideSequenceExtensionId is for srtp transports; a WebRTC transport negotiates transport-cc in its SDP"))
            }
            return createWebRTCTransport(session: session, room: room, receiving: receiving, receiveOnly: params.receiveOnly == true)
        case let other?:
            return fail(RelayError(.invalidParams, "params.kind must be \"srtp\" or \"webrtc\", got \"\(other)\""))
        }
        var congestionControl = CongestionControlSpec.none
        if let id = params.transportWideSequenceExtensionId {
            // The relay writes its numbers in the one-byte form, whose ids end at 14.
            guard (1...14).contains(id) else {
                return fail(RelayError(.invalidParams, "params.transportWideSequenceExtensionId must be 1-14 (an RFC 8285 one-byte id), got \(id)"))
            }
            // With transport-wide congestion control off the request is declined, as a WebRTC
            // answer drops the extension: the result leaves the id out.
            if configuration.congestionFeedback {
                congestionControl = CongestionControlSpec(receivedSequenceExtensionId: UInt8(id), sentSequenceExtensionId: UInt8(id))
            }
        }
        let profile: SRTPProfile?
        switch params.srtpProfile {
        case nil:
            profile = configuration.srtpProfiles.first
        case "none"?:
            guard configuration.allowPlainRTP else { return fail(RelayError(.unsupported, "plain RTP is disabled on this relay (media.allowPlainRTP)")) }
            profile = nil
        case let name?:
            guard let named = SRTPProfile(rawValue: name), configuration.srtpProfiles.contains(named) else {
                let offered = configuration.srtpProfiles.map(\.rawValue) + (configuration.allowPlainRTP ? ["none"] : [])
                return fail(RelayError(.unsupported, "srtpProfile '\(name)' is not offered; use one of \(offered.joined(separator: ", "))"))
            }
            profile = named
        }
        // An SRTP transport opened before its session joins, for no named room, waits for the
        // join to be placed.
        switch media.openTransport(profile: profile, group: room, receiving: receiving) {
        case .failure(.noFreePort(let range)):
            refusals.count(.mediaPorts)
            logger.error("no free media port", metadata: ["range": "\(range.lowerBound)-\(range.upperBound)"])
            return fail(RelayError(.noMediaPort, "no free media port on the relay"))
        case .failure(let error):
            logger.error("could not open a transport", metadata: ["error": "\(error)"])
            return fail(RelayError(.internalError, "could not open a transport: \(error)"))
        case .success(let opened):
            sessions[session]?.transports[opened.id] = opened.port
            if params.receiveOnly == true { sessions[session]?.receiveOnlyTransports.insert(opened.id) }
            engine.transportCreated(session: session, transportId: opened.id, retransmissionStreams: congestionControl != .none)
            // Before any sink is bound: a sink's send path is chosen when it binds.
            if congestionControl != .none { media.setCongestionControl(transportId: opened.id, congestionControl) }
            let srtp = opened.profile.map { SRTPParameters(profile: $0.rawValue, key: SDESKeying.encodeBase64(opened.relayKey ?? [])) }
            return EngineOutcome(
                result: .success(
                    CreateTransportResult(
                        transportId: opened.id, ip: media.announcedAddress, port: opened.port, srtp: srtp,
                        transportWideSequenceExtensionId: congestionControl == .none ? nil : Int(congestionControl.sentSequenceExtensionId))),
                actions: [])
        }
    }

    /// Gives a transport the client's key and optional address.
    func connectTransport(_ params: ConnectTransportParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        func fail(_ error: RelayError) -> EngineOutcome<EmptyResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard sessions[session]?.transports[params.transportId] != nil else {
            return fail(RelayError(.transportNotFound, "transport \(params.transportId) is not a transport of this connection"))
        }
        if webRTC[params.transportId] != nil {
            return fail(
                RelayError(.transportState, "transport \(params.transportId) is a WebRTC transport: it connects through ICE and DTLS, not connectTransport"))
        }
        var remote: PeerEndpoint?
        switch (params.ip, params.port) {
        case (nil, nil):
            remote = nil
        case (let ip?, let port?):
            guard let endpoint = PeerEndpoint(host: ip, port: port) else {
                return fail(RelayError(.invalidParams, "params.ip must be an IPv4 address and params.port 1-65535"))
            }
            remote = endpoint
        default:
            return fail(RelayError(.invalidParams, "give both params.ip and params.port, or neither to latch"))
        }
        var key: [UInt8]?
        if let text = params.srtpKey {
            let material = text.split(separator: "|").first.map(String.init) ?? text
            guard let decoded = SDESKeying.decodeBase64(material) else {
                return fail(RelayError(.invalidParams, "params.srtpKey must be base64 keying material (master key and salt)"))
            }
            key = decoded
        }
        // A named address is sent to once it proved it wants media, unless a token the session
        // joined with vouches for it.
        let vouched = remote != nil && engine.vouchesForMediaAddress(session: session)
        switch media.connectTransport(id: params.transportId, remote: remote, clientKey: key, addressGranted: vouched) {
        case .success:
            return EngineOutcome(result: .success(EmptyResult()), actions: [])
        case .failure(.alreadyConnected):
            return fail(RelayError(.transportState, "transport \(params.transportId) is already connected"))
        case .failure(.invalidKey(let reason)):
            return fail(RelayError(.invalidParams, reason))
        case .failure(let error):
            return fail(RelayError(.transportNotFound, "\(error)"))
        }
    }

    /// Closes a transport: publications on it end (Other), sinks on it go, then the transport.
    /// Everything the engine says about it happens: the room hears the unpublish, and so do the
    /// room server (webhook), the logs, the counters and mirrors on other nodes.
    func closeTransport(_ params: TransportParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        guard sessions[session]?.transports.removeValue(forKey: params.transportId) != nil else {
            return EngineOutcome(
                result: .failure(RelayError(.transportNotFound, "transport \(params.transportId) is not a transport of this connection")), actions: [])
        }
        sessions[session]?.receiveOnlyTransports.remove(params.transportId)
        return EngineOutcome(result: .success(EmptyResult()), actions: engine.transportClosed(session: session, transportId: params.transportId, now: now))
    }
}
