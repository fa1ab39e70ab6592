import ICE
import MediaPlane
import Protocol
import RoomEngine
import SDP
import SecureTransport

extension RelayCore {
    /// Opens a WebRTC transport on the shared WebRTC port with fresh ICE credentials.
    func createWebRTCTransport(session: SessionID) -> EngineOutcome<CreateTransportResult> {
        func fail(_ error: RelayError) -> EngineOutcome<CreateTransportResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let dtlsContext, let port = media.webRTCPort else {
            return fail(RelayError(.unsupported, "WebRTC is off on this relay (media.webrtcEnabled)"))
        }
        let credentials = ICECredentials.random()
        switch media.openWebRTCTransport(credentials: credentials, audioLevelExtensionId: negotiator.capabilities.subscriptionAudioLevelExtensionID) {
        case .failure(let error):
            return fail(RelayError(.internalError, "could not open a WebRTC transport: \(error)"))
        case .success(let id):
            sessions[session]?.transports[id] = port
            engine.transportCreated(session: session, transportId: id)
            webRTC[id] = WebRTCTransportState(id: id, session: session, credentials: credentials, sdpSessionID: UInt64.random(in: 1...UInt64(Int64.max)))
            let fingerprint = dtlsContext.certificate.fingerprint
            let result = CreateTransportResult(
                transportId: id, kind: "webrtc", ip: media.announcedAddress, port: port, srtp: nil,
                ice: ICEParameters(usernameFragment: credentials.ufrag, password: credentials.password),
                dtls: DTLSParameters(role: "server", fingerprint: FingerprintParameters(algorithm: fingerprint.algorithm.rawValue, value: Self.hexPairs(fingerprint.digest))))
            return EngineOutcome(result: .success(result), actions: [])
        }
    }

    /// The relay's side of a transport as SDP describes it.
    func relayDescription(of state: WebRTCTransportState) -> RelayTransportDescription? {
        guard let dtlsContext, let port = media.webRTCPort else { return nil }
        let fingerprint = dtlsContext.certificate.fingerprint
        return RelayTransportDescription(
            iceUsernameFragment: state.credentials.ufrag, icePassword: state.credentials.password,
            fingerprint: SDPFingerprint(algorithm: fingerprint.algorithm.rawValue, bytes: fingerprint.digest),
            candidateAddress: media.announcedAddress, candidatePort: UInt16(port), sessionID: state.sdpSessionID, sessionVersion: 1)
    }

    /// publishStream with an SDP offer: the tracks come from the offer, the result carries the answer.
    func publishWithOffer(_ params: PublishStreamParams, offer: String, session: SessionID) -> EngineOutcome<PublishStreamResult> {
        func fail(_ error: RelayError) -> EngineOutcome<PublishStreamResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let state = webRTC[params.transportId], state.session == session else {
            return fail(RelayError(.transportNotFound, "transport \(params.transportId) is not a WebRTC transport of this connection; create one with createTransport {kind: \"webrtc\"}"))
        }
        guard state.purpose != .receive else {
            return fail(RelayError(.transportState, "transport \(params.transportId) receives streams; publish on a WebRTC transport of its own"))
        }
        guard let relay = relayDescription(of: state) else { return fail(RelayError(.unsupported, "WebRTC is off on this relay")) }
        let answer: PublishAnswer
        do {
            answer = try negotiator.answer(toPublishOffer: offer, relay: relay)
        } catch {
            return fail(RelayError(.sdpRejected, "the SDP offer cannot be used: \(error)"))
        }
        var tracks: [TrackDescription] = []
        for section in answer.negotiated.sections {
            let kind: TrackKind = section.kind == .audio ? .audio : .video
            guard !tracks.contains(where: { $0.kind == kind }) else {
                return fail(RelayError(.sdpRejected, "the offer has more than one \(kind.rawValue) section; publish one audio and one video track per stream"))
            }
            if kind == .video, section.ssrcs.isEmpty || section.simulcastRIDs.count > 1, !section.simulcastRIDs.isEmpty {
                // Simulcast by rid: the layers become the dual stream, the last listed the big
                // one and the first the small one (encodings listed from the smallest up, as
                // browsers' examples do). Their SSRCs are learnt from the first packets.
                guard let ridExtension = section.headerExtensions.rtpStreamID else {
                    return fail(RelayError(.sdpRejected, "the video section (mid \(section.mid)) offers simulcast without the rtp-stream-id header extension"))
                }
                state.ridExtensionId = ridExtension
                let layers = section.simulcastRIDs.count > 1 ? [section.simulcastRIDs.last!, section.simulcastRIDs.first!] : [section.simulcastRIDs[0]]
                for (rid, type) in zip(layers, [VideoStreamType.big, .small]) {
                    var track = TrackDescription(
                        kind: .video, ssrc: 0, payloadType: Int(section.codec.payloadType), codec: section.codec.name,
                        clockRate: Int(section.codec.clockRate), parameters: section.codec.formatParameters, videoStreamType: type)
                    track.rid = rid
                    tracks.append(track)
                }
                continue
            }
            guard let ssrc = section.ssrcs.first else {
                return fail(RelayError(.sdpRejected, "the \(kind.rawValue) section (mid \(section.mid)) announces no SSRC (a=ssrc) and no simulcast rids"))
            }
            var track = TrackDescription(
                kind: kind, ssrc: ssrc, payloadType: Int(section.codec.payloadType), codec: section.codec.name,
                clockRate: Int(section.codec.clockRate), channels: section.codec.channels, parameters: section.codec.formatParameters,
                audioLevelExtensionId: kind == .audio ? section.headerExtensions.audioLevel.map(Int.init) : nil)
            // The answer accepted the client's rtx; its packets arrive on the SSRC the FID group pairs with the track's.
            if kind == .video, let rtxPayloadType = section.rtxPayloadType, let rtxSSRC = section.rtxSSRCs[ssrc] {
                track.rtxSSRC = rtxSSRC
                track.rtxPayloadType = Int(rtxPayloadType)
            }
            tracks.append(track)
        }
        guard !tracks.isEmpty else { return fail(RelayError(.sdpRejected, "the offer has no audio or video section the relay can receive")) }
        var engineParams = params
        engineParams.tracks = tracks
        let outcome = engine.publish(session: session, params: engineParams, now: now)
        guard case .success(var result) = outcome.result else { return outcome }
        state.purpose = .publish
        result.sdp = answer.sdp
        adoptClientTransport(answer.negotiated.clientTransport, for: state)
        return EngineOutcome(result: .success(result), actions: outcome.actions)
    }

    /// answerTransportOffer: the client accepted (or declined parts of) the relay's offer.
    func answerTransportOffer(_ params: AnswerTransportOfferParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        func fail(_ error: RelayError) -> EngineOutcome<EmptyResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard let state = webRTC[params.transportId], state.session == session else {
            return fail(RelayError(.transportNotFound, "transport \(params.transportId) is not a WebRTC transport of this connection"))
        }
        guard let offer = state.pendingOffer, params.revision == state.revision else {
            return fail(RelayError(.wrongState, "no offer with revision \(params.revision) is waiting for an answer on transport \(params.transportId) (current revision \(state.revision))"))
        }
        let answer: SubscriptionAnswer
        do {
            answer = try negotiator.parseAnswer(params.sdp, toSubscriptionOffer: offer)
        } catch {
            return fail(RelayError(.sdpRejected, "the SDP answer cannot be used: \(error)"))
        }
        // Tracks the client has just learnt of start at a keyframe: what was sent before the
        // answer (the first keyframe included) reached a client that could not place it.
        let newlyActive = Set(offer.layout.activeMids).subtracting(state.layout.activeMids).intersection(answer.acceptedMids)
        for (sinkId, mid) in state.mids where newlyActive.contains(mid) && state.tracks[sinkId]?.kind == .video {
            media.restartSinkAtKeyframe(sink: sinkId)
        }
        // Retransmissions go on the RTX stream where the client kept the offered rtx, else repeat the packet.
        let withRetransmission = Set(answer.retransmissionMids)
        for (sinkId, mid) in state.mids where answer.acceptedMids.contains(mid) {
            guard let track = state.tracks[sinkId], let rtxSSRC = track.rtxSSRC, let rtxPayloadType = track.rtxPayloadType else { continue }
            let kept = withRetransmission.contains(mid)
            media.setSinkRetransmission(sink: sinkId, ssrc: kept ? rtxSSRC : 0, payloadType: kept ? rtxPayloadType : 0)
        }
        state.layout = offer.layout
        state.pendingOffer = nil
        if let client = answer.clientTransport { adoptClientTransport(client, for: state) }
        if state.needsOffer { sendOffer(state) }
        return EngineOutcome(result: .success(EmptyResult()), actions: [])
    }

    /// The client's ICE credentials and certificate fingerprints: checks must now name its
    /// ufrag, and the DTLS handshake can run (with any records that came early).
    func adoptClientTransport(_ client: ClientTransportParameters, for state: WebRTCTransportState) {
        guard state.dtls == nil, let dtlsContext else { return }
        media.setRemoteICECredentials(transportId: state.id, credentials: ICECredentials(ufrag: client.iceUsernameFragment, password: client.icePassword))
        let fingerprints = client.fingerprints.compactMap { DTLSFingerprint(sdpValue: "\($0.algorithm) \($0.value)") }
        do {
            state.dtls = try DTLSEndpoint(context: dtlsContext, role: .server, expectedPeerFingerprints: fingerprints)
        } catch {
            failWebRTC(state, code: .dtlsFailed, reason: "the client's SDP has no usable certificate fingerprint (\(error))")
            return
        }
        let early = state.earlyDatagrams
        state.earlyDatagrams = []
        for datagram in early where webRTC[state.id] != nil {
            handleDTLS(state.dtls!.handleDatagram(datagram), for: state)
        }
    }

    /// News from the data plane about WebRTC transports.
    public func handleMediaEvent(_ event: MediaPlaneEvent) {
        switch event {
        case .iceSelected(let id, let remote):
            webRTC[id]?.remote = remote
        case .dtlsDatagram(let id, let datagram, let from):
            guard let state = webRTC[id] else { return }
            if state.remote == nil { state.remote = from }
            guard let dtls = state.dtls else {
                if state.earlyDatagrams.count < WebRTCTransportState.earlyDatagramLimit { state.earlyDatagrams.append(datagram) }
                return
            }
            handleDTLS(dtls.handleDatagram(datagram), for: state)
        case .iceExpired(let id, let neverConnected):
            guard let state = webRTC[id] else { return }
            let seconds = configuration.media.iceTimeoutMs / 1000
            failWebRTC(state, code: .iceFailed, reason: neverConnected
                ? "no ICE connectivity check arrived within \(seconds) s of the SDP exchange"
                : "ICE consent lapsed: no connectivity check for \(seconds) s")
        }
    }

    /// Sends a DTLS step's records and acts on its outcome.
    func handleDTLS(_ step: DTLSStepResult, for state: WebRTCTransportState) {
        if let remote = state.remote {
            for datagram in step.datagrams { media.sendWebRTCDatagram(datagram, to: remote) }
        }
        guard let newState = step.newState else { return }
        switch newState {
        case .connecting:
            break
        case .connected(let keys):
            do {
                let inbound = try keys.makeReceiverSession()
                let outbound = try keys.makeSenderSession()
                media.connectWebRTCTransport(id: state.id, inbound: SRTPSessionHandoff(inbound), outbound: SRTPSessionHandoff(outbound))
            } catch {
                failWebRTC(state, code: .dtlsFailed, reason: "the DTLS-SRTP keys could not be used: \(error)")
                return
            }
            state.connected = true
            send(.transportStateChanged(TransportStateChangedEvent(transportId: state.id, state: "connected")), to: state.session)
            logger.info("webrtc transport connected", metadata: ["transport": "\(state.id)", "profile": "\(keys.profile.rawValue)"])
        case .failed(let failure):
            failWebRTC(state, code: .dtlsFailed, reason: "the DTLS handshake failed: \(failure)")
        case .closed:
            failWebRTC(state, code: nil, reason: "the client closed DTLS (close_notify)")
        }
    }

    /// Ends a WebRTC transport the relay gave up on: the client hears why, its streams end
    /// (PublishFailed after DTLS, KeepLiveFailed after ICE), its subscriptions' tracks go.
    func failWebRTC(_ state: WebRTCTransportState, code: ErrorCode?, reason: String) {
        guard webRTC.removeValue(forKey: state.id) != nil else { return }
        send(.transportStateChanged(TransportStateChangedEvent(
            transportId: state.id, state: code == nil ? "closed" : "failed", errorCode: code?.rawValue, reason: reason)), to: state.session)
        logger.info("webrtc transport closed", metadata: ["transport": "\(state.id)", "reason": "\(reason)"])
        guard sessions[state.session]?.transports.removeValue(forKey: state.id) != nil else { return }
        let unpublishReason: UnpublishReason = code == .iceFailed ? .keepLiveFailed : code == .dtlsFailed ? .publishFailed : .other
        let actions = engine.transportClosed(session: state.session, transportId: state.id, reason: unpublishReason, now: now)
        apply(actions)
        media.closeTransport(id: state.id)
    }

    /// DTLS retransmissions, from the relay's timer.
    func runWebRTCTimers() {
        for state in webRTC.values {
            guard let dtls = state.dtls, !state.connected, let remaining = dtls.nextTimeout, remaining <= .zero else { continue }
            handleDTLS(dtls.handleTimeout(), for: state)
        }
    }

    // MARK: Receiving transports

    /// Follows the engine's actions for sinks on WebRTC transports, so offers describe them.
    func trackWebRTCSinks(_ actions: [EngineAction]) {
        guard !webRTC.isEmpty else { return }
        for action in actions {
            switch action {
            case .media(.addSink(let sink)):
                guard let state = webRTC[sink.transportId] else { continue }
                state.purpose = .receive
                state.sinkSSRCs[sink.id] = sink.outputSSRC
            case .media(.removeSink(let id)):
                for state in webRTC.values where state.sinkSSRCs[id] != nil {
                    state.sinkSSRCs[id] = nil
                    state.mids[id] = nil
                    state.sinkPayloadTypes[id] = nil
                    state.sinkRetransmissionSSRCs[id] = nil
                    if state.tracks.removeValue(forKey: id) != nil { state.needsOffer = true }
                }
            case .event(let session, .streamSubscribed(let result)):
                for track in result.tracks {
                    guard let state = webRTC[track.transportId], state.session == session,
                          let sinkId = state.sinkSSRCs.first(where: { $0.value == track.ssrc })?.key else { continue }
                    let description = outgoingTrack(track, publisher: result.userId, streamIndex: result.streamIndex, sinkId: sinkId, in: state)
                    if state.tracks[sinkId] != description {
                        state.tracks[sinkId] = description
                        state.needsOffer = true
                    }
                }
            default:
                continue
            }
        }
        for state in webRTC.values where state.needsOffer && state.pendingOffer == nil { sendOffer(state) }
    }

    func outgoingTrack(_ track: SubscribedTrack, publisher: String, streamIndex: StreamIndex, sinkId: UInt32, in state: WebRTCTransportState) -> OutgoingTrackDescription {
        let mid: String
        let kind: SDPMediaKind = track.kind == .audio ? .audio : .video
        if let existing = state.mids[sinkId] {
            mid = existing
        } else if let free = state.layout.slots.first(where: { slot in
            !slot.isActive && slot.kind == kind && !state.mids.values.contains(slot.mid)
        }) {
            // An inactive section of the same kind takes the new track, keeping its mid.
            mid = free.mid
            state.mids[sinkId] = mid
        } else {
            mid = String(state.nextMid)
            state.nextMid += 1
            state.mids[sinkId] = mid
        }
        let streamID = streamIndex == .main ? publisher : "\(publisher)-\(streamIndex.rawValue)"
        let channels = track.kind == .audio ? (track.channels ?? (track.codec.lowercased() == "opus" ? 2 : nil)) : nil
        let payloadType = subscriberPayloadType(
            for: "\(track.codec.lowercased())/\(track.clockRate)/\(channels ?? 0)/\(track.parameters ?? "")",
            publisherPayloadType: UInt8(clamping: track.payloadType), sinkId: sinkId, in: state)
        var rtxPayloadType: UInt8?
        var rtxSSRC: UInt32?
        if track.kind == .video {
            rtxPayloadType = retransmissionPayloadType(for: payloadType, clockRate: track.clockRate, in: state)
            rtxSSRC = rtxPayloadType.map { _ in retransmissionSSRC(for: sinkId, in: state) }
        }
        return OutgoingTrackDescription(
            mid: mid, kind: track.kind == .audio ? .audio : .video,
            codec: CodecDescription(
                payloadType: payloadType, name: track.codec, clockRate: UInt32(clamping: track.clockRate),
                channels: channels, formatParameters: track.parameters),
            rtxPayloadType: rtxPayloadType, ssrc: track.ssrc, rtxSSRC: rtxSSRC, cname: publisher, streamID: streamID,
            trackID: "\(streamID)-\(track.kind.rawValue)")
    }

    /// The rtx payload type paired with `payloadType` in this transport's offers: one per video
    /// payload type, shared by every section that sends it; nil when no dynamic number is free.
    func retransmissionPayloadType(for payloadType: UInt8, clockRate: Int, in state: WebRTCTransportState) -> UInt8? {
        let codec = "rtx/\(clockRate)/0/apt=\(payloadType)"
        if let existing = state.payloadTypeCodecs.first(where: { $0.value == codec })?.key { return existing }
        guard let free = state.freeDynamicPayloadType else { return nil }
        state.payloadTypeCodecs[free] = codec
        return free
    }

    /// The SSRC of a sink's retransmission stream: drawn once, distinct from every SSRC the
    /// transport sends.
    func retransmissionSSRC(for sinkId: UInt32, in state: WebRTCTransportState) -> UInt32 {
        if let existing = state.sinkRetransmissionSSRCs[sinkId] { return existing }
        let taken = Set(state.sinkSSRCs.values).union(state.sinkRetransmissionSSRCs.values)
        var ssrc = UInt32.random(in: 1...UInt32.max)
        while taken.contains(ssrc) { ssrc = UInt32.random(in: 1...UInt32.max) }
        state.sinkRetransmissionSSRCs[sinkId] = ssrc
        return ssrc
    }

    /// The payload type a sink is offered and sent with: the publisher's own when this
    /// transport's offers do not use it for another codec, else one they already give this
    /// codec, else a free dynamic one (the media plane then rewrites the packets' number).
    func subscriberPayloadType(for codec: String, publisherPayloadType: UInt8, sinkId: UInt32, in state: WebRTCTransportState) -> UInt8 {
        let chosen: UInt8
        if let current = state.sinkPayloadTypes[sinkId], state.payloadTypeCodecs[current] == codec {
            chosen = current
        } else if state.payloadTypeCodecs[publisherPayloadType] == nil || state.payloadTypeCodecs[publisherPayloadType] == codec {
            chosen = publisherPayloadType
        } else if let shared = state.payloadTypeCodecs.first(where: { $0.value == codec })?.key {
            chosen = shared
        } else if let free = state.freeDynamicPayloadType {
            chosen = free
        } else {
            logger.warning("no free payload type left on a WebRTC transport", metadata: ["transport": "\(state.id)"])
            chosen = publisherPayloadType
        }
        state.payloadTypeCodecs[chosen] = codec
        if state.sinkPayloadTypes[sinkId] != chosen {
            if chosen != publisherPayloadType || state.sinkPayloadTypes[sinkId] != nil {
                media.setSinkPayloadType(sink: sinkId, payloadType: chosen)
            }
            state.sinkPayloadTypes[sinkId] = chosen
        }
        return chosen
    }

    /// Sends the next offer of a receiving transport (nothing while one is unanswered).
    func sendOffer(_ state: WebRTCTransportState) {
        guard state.pendingOffer == nil, let relay = relayDescription(of: state) else { return }
        state.needsOffer = false
        let tracks = state.tracks.values.sorted { (Int($0.mid) ?? 0) < (Int($1.mid) ?? 0) }
        if tracks.isEmpty && state.layout.slots.isEmpty { return }
        do {
            let offer = try negotiator.offer(forSubscription: tracks, previous: state.layout, relay: relay, version: UInt64(state.revision + 1))
            state.revision += 1
            state.pendingOffer = offer
            send(.transportOffer(TransportOfferEvent(transportId: state.id, revision: state.revision, sdp: offer.sdp)), to: state.session)
        } catch {
            logger.error("could not build a WebRTC offer", metadata: ["transport": "\(state.id)", "error": "\(error)"])
        }
    }

    static func hexPairs(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: ":")
    }
}
