import ICE
import MediaPlane
import Protocol
import RoomEngine
import SDP
import SecureTransport

/// One WebRTC transport's negotiation as a state machine: the client's SDP, the DTLS handshake
/// (over memory BIOs, never on the data-plane thread) and, for a receiving transport, the relay's
/// offers and the client's answers. Each event method updates the state and returns the
/// effects for the relay core to carry out; nothing here touches a socket, so tests drive it
/// with a real DTLS client and scripted SDP.
///
/// The phases: awaiting the client's description (its ICE credentials and fingerprints; DTLS
/// records that come before it wait), handshaking, connected, ended (failed or closed). What
/// a receiving transport offers (mids, payload types, SSRCs) is the engine's decision and
/// arrives whole through ``offer(_:)``.
struct WebRTCSession {
    enum Phase {
        case awaitingDescription(early: [[UInt8]])
        case handshaking(DTLSEndpoint)
        case connected(DTLSEndpoint)
        case ended
    }

    /// What the transport is used for; fixed by its first use.
    enum Purpose { case undecided, publish, receive }

    let id: Int
    let session: SessionID
    /// The relay's ICE credentials; new after an ICE restart.
    private(set) var credentials: ICECredentials
    /// Session id of the relay's SDP for this transport.
    let sdpSessionID: UInt64
    private(set) var phase = Phase.awaitingDescription(early: [])
    private(set) var purpose = Purpose.undecided
    /// Where ICE checks came from; DTLS records go back there.
    private(set) var remote: PeerEndpoint?

    // Receiving: the relay is the offerer.
    /// The tracks to offer, in mid order, as the engine last described them.
    private var tracks: [OfferedTrack] = []
    /// The layout of the last answered offer.
    private var layout = SubscriptionLayout()
    /// The offer sent and not yet answered.
    private(set) var pendingOffer: SubscriptionOffer?
    private(set) var revision = 0
    /// The tracks changed since the last offer.
    private var needsOffer = false
    /// An ICE restart of a receiving transport waits for the answer that brings the client's
    /// new credentials.
    private var restartPending = false
    /// The client's certificate fingerprints from its first description: an ICE restart keeps them.
    private var clientFingerprints: [SDPFingerprint] = []
    /// A player's transport (WHEP): the client offered once, and the relay never offers.
    private(set) var clientOffers = false
    /// The id under which the relay stamps transport-wide numbers on what it sends, once a
    /// subscriber's answer kept the extension.
    private var sentSequenceExtensionId: UInt8?

    /// The most records kept while waiting for the client's SDP.
    static let earlyDatagramLimit = 32

    init(id: Int, session: SessionID, credentials: ICECredentials, sdpSessionID: UInt64) {
        self.id = id
        self.session = session
        self.credentials = credentials
        self.sdpSessionID = sdpSessionID
    }

    var isConnected: Bool {
        if case .connected = phase { return true }
        return false
    }

    // MARK: The network

    /// A DTLS record arrived from `source`.
    mutating func receive(_ datagram: [UInt8], from source: PeerEndpoint) -> [WebRTCEffect] {
        if remote == nil { remote = source }
        switch phase {
        case .awaitingDescription(var early):
            // A fast client starts its handshake before its answer reaches the relay.
            guard early.count < Self.earlyDatagramLimit else { return [] }
            early.append(datagram)
            phase = .awaitingDescription(early: early)
            return []
        case .handshaking(let dtls), .connected(let dtls):
            return step(dtls.handleDatagram(datagram))
        case .ended:
            return []
        }
    }

    /// ICE nominated (or first validated) an address: DTLS records go there now.
    mutating func iceSelected(_ address: PeerEndpoint) { remote = address }

    /// ICE gave up: no check arrived in time, or consent lapsed.
    mutating func iceExpired(neverConnected: Bool, timeoutSeconds: Int) -> [WebRTCEffect] {
        end(
            .iceFailed,
            neverConnected
                ? "no ICE connectivity check arrived within \(timeoutSeconds) s of the SDP exchange"
                : "ICE consent lapsed: no connectivity check for \(timeoutSeconds) s")
    }

    /// DTLS retransmissions, when the handshake's timer is due.
    mutating func timerFired() -> [WebRTCEffect] {
        guard case .handshaking(let dtls) = phase, let remaining = dtls.nextTimeout, remaining <= .zero else { return [] }
        return step(dtls.handleTimeout())
    }

    /// The relay ends the transport (the client closed it, or its connection went).
    mutating func close() { phase = .ended }

    // MARK: Publishing

    /// Reads a publisher's offer: the tracks to publish (one audio and one video section; rid
    /// simulcast becomes the dual stream, the last rid the big one and the first the small
    /// one) and the relay's answer. Nothing changes until ``published(_:context:)``.
    func negotiatePublish(offer: String, negotiator: RelayNegotiator, relay: RelayTransportDescription) -> Result<PublishNegotiation, RelayError> {
        guard purpose != .receive else {
            return .failure(RelayError(.transportState, "transport \(id) receives streams; publish on a WebRTC transport of its own"))
        }
        let answer: PublishAnswer
        do {
            answer = try negotiator.answer(toPublishOffer: offer, relay: relay)
        } catch {
            return .failure(RelayError(.sdpRejected, "the SDP offer cannot be used: \(error)"))
        }
        var tracks: [TrackDescription] = []
        var ridExtensionId: UInt8?
        for section in answer.negotiated.sections {
            let kind: TrackKind = section.kind == .audio ? .audio : .video
            guard !tracks.contains(where: { $0.kind == kind }) else {
                return .failure(
                    RelayError(.sdpRejected, "the offer has more than one \(kind.rawValue) section; publish one audio and one video track per stream"))
            }
            if kind == .video, section.ssrcs.isEmpty || section.simulcastRIDs.count > 1, !section.simulcastRIDs.isEmpty {
                // Encodings are listed from the smallest up, as browsers' examples do. Their
                // SSRCs are learnt from the first packets.
                guard let ridExtension = section.headerExtensions.rtpStreamID else {
                    return .failure(
                        RelayError(.sdpRejected, "the video section (mid \(section.mid)) offers simulcast without the rtp-stream-id header extension"))
                }
                ridExtensionId = ridExtension
                // Up to three: the last is big, the first small, the second medium.
                let rids = section.simulcastRIDs
                let layers: [(String, VideoStreamType)] =
                    rids.count > 2
                    ? [(rids.last!, .big), (rids[1], .medium), (rids[0], .small)]
                    : rids.count == 2 ? [(rids[1], .big), (rids[0], .small)] : [(rids[0], .big)]
                for (rid, type) in layers {
                    var track = TrackDescription(
                        kind: .video, ssrc: 0, payloadType: Int(section.codec.payloadType), codec: section.codec.name,
                        clockRate: Int(section.codec.clockRate), parameters: section.codec.formatParameters, videoStreamType: type)
                    track.rid = rid
                    tracks.append(track)
                }
                continue
            }
            guard let ssrc = section.ssrcs.first else {
                return .failure(RelayError(.sdpRejected, "the \(kind.rawValue) section (mid \(section.mid)) announces no SSRC (a=ssrc) and no simulcast rids"))
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
        guard !tracks.isEmpty else { return .failure(RelayError(.sdpRejected, "the offer has no audio or video section the relay can receive")) }
        // One id for the transport-wide sequence number across the bundle (RFC 8843 wants the
        // same id for the same URI in every bundled section); the first accepted section's.
        let congestionControl = CongestionControlSpec(
            receivedSequenceExtensionId: answer.negotiated.sections.lazy.compactMap(\.headerExtensions.transportWideSequenceNumber).first ?? 0)
        return .success(
            PublishNegotiation(
                answerSDP: answer.sdp, tracks: tracks, ridExtensionId: ridExtensionId, congestionControl: congestionControl,
                clientTransport: answer.negotiated.clientTransport))
    }

    /// The engine published what the offer carried: the transport publishes from now on, and
    /// the handshake can start.
    mutating func published(_ negotiation: PublishNegotiation, context: DTLSContext) -> [WebRTCEffect] {
        purpose = .publish
        let congestionControl: [WebRTCEffect] = negotiation.congestionControl == .none ? [] : [.congestionControl(negotiation.congestionControl)]
        return congestionControl + adopt(negotiation.clientTransport, context: context)
    }

    // MARK: Receiving

    /// The tracks the engine wants offered now; an offer follows when none is unanswered.
    mutating func offer(_ tracks: [OfferedTrack]) {
        purpose = .receive
        guard tracks != self.tracks else { return }
        self.tracks = tracks
        needsOffer = true
    }

    /// The tracks the engine last asked to send, in mid order.
    var offeredTracks: [OfferedTrack] { tracks }

    // MARK: ICE restart

    /// A publisher's ICE restart: its new offer (new ICE credentials, the same certificate) is
    /// answered with the relay's new credentials, and checks must name both from now on. The
    /// DTLS association and everything published stay.
    mutating func restartPublishing(
        offer: String, negotiator: RelayNegotiator, relay: RelayTransportDescription
    ) -> Result<(sdp: String, effects: [WebRTCEffect]), RelayError> {
        guard purpose == .publish, isConnected || isHandshaking else {
            return .failure(RelayError(.transportState, "transport \(id) is not a connected publishing WebRTC transport"))
        }
        let local = ICECredentials.random()
        var restarted = relay
        restarted.iceUsernameFragment = local.ufrag
        restarted.icePassword = local.password
        let answer: PublishAnswer
        do {
            answer = try negotiator.answer(toPublishOffer: offer, relay: restarted)
        } catch {
            return .failure(RelayError(.sdpRejected, "the SDP offer cannot be used: \(error)"))
        }
        return restart(local: local, client: answer.negotiated.clientTransport).map { (answer.sdp, $0) }
    }

    /// A subscriber's ICE restart: the relay's next offer carries new credentials; the answer
    /// to it brings the client's (``answer(revision:sdp:negotiator:context:)``).
    mutating func restartReceiving() -> Result<Void, RelayError> {
        guard purpose == .receive, !clientOffers, isConnected || isHandshaking else {
            return .failure(RelayError(.transportState, "transport \(id) is not a connected receiving WebRTC transport"))
        }
        credentials = ICECredentials.random()
        restartPending = true
        needsOffer = true
        return .success(())
    }

    /// A WHIP or WHEP client's ICE restart (its new credentials in a PATCH): the relay's new ones.
    mutating func restartFromFragment(client: ICECredentials) -> (local: ICECredentials, effects: [WebRTCEffect]) {
        let local = ICECredentials.random()
        credentials = local
        return (local, [.restartICE(local: local, remote: client)])
    }

    private mutating func restart(local: ICECredentials, client: ClientTransportParameters) -> Result<[WebRTCEffect], RelayError> {
        guard client.fingerprints == clientFingerprints else {
            return .failure(RelayError(.sdpRejected, "an ICE restart keeps the DTLS association: the offer names another certificate"))
        }
        credentials = local
        return .success([.restartICE(local: local, remote: ICECredentials(ufrag: client.iceUsernameFragment, password: client.icePassword))])
    }

    private var isHandshaking: Bool {
        if case .handshaking = phase { return true }
        return false
    }

    /// A player offered to receive (WHEP): the transport receives, its client's transport is
    /// known now, and the relay will not offer on it.
    mutating func playerOffered(_ client: ClientTransportParameters, context: DTLSContext) -> [WebRTCEffect] {
        purpose = .receive
        clientOffers = true
        return adopt(client, context: context)
    }

    /// The next offer, when the tracks changed and no offer waits for its answer.
    mutating func nextOffer(negotiator: RelayNegotiator, relay: RelayTransportDescription) -> Result<TransportOfferEvent, RelayError>? {
        guard needsOffer, pendingOffer == nil, !clientOffers else { return nil }
        needsOffer = false
        if tracks.isEmpty && layout.slots.isEmpty { return nil }
        do {
            let offer = try negotiator.offer(forSubscription: tracks.map(Self.description(of:)), previous: layout, relay: relay, version: UInt64(revision + 1))
            revision += 1
            pendingOffer = offer
            return .success(TransportOfferEvent(transportId: id, revision: revision, sdp: offer.sdp))
        } catch {
            return .failure(RelayError(.internalError, "could not build a WebRTC offer: \(error)"))
        }
    }

    /// The client's answer to offer `revision`: what it settled (for the engine) and the
    /// effects of the client's transport when the answer is the first to name it.
    mutating func answer(
        revision: Int, sdp: String, negotiator: RelayNegotiator, context: DTLSContext
    ) -> Result<(SubscriptionAnswerFacts, [WebRTCEffect]), RelayError> {
        guard let offer = pendingOffer, revision == self.revision else {
            return .failure(
                RelayError(
                    .wrongState, "no offer with revision \(revision) is waiting for an answer on transport \(id) (current revision \(self.revision))"))
        }
        let answer: SubscriptionAnswer
        do {
            answer = try negotiator.parseAnswer(sdp, toSubscriptionOffer: offer)
        } catch {
            return .failure(RelayError(.sdpRejected, "the SDP answer cannot be used: \(error)"))
        }
        let accepted = Set(answer.acceptedMids)
        let facts = SubscriptionAnswerFacts(
            slots: offer.layout.slots.map { OfferedSlot(mid: $0.mid, kind: $0.kind == .audio ? .audio : .video, isActive: $0.isActive) },
            accepted: accepted, retransmission: Set(answer.retransmissionMids),
            newlyActive: Set(offer.layout.activeMids).subtracting(layout.activeMids).intersection(accepted))
        layout = offer.layout
        pendingOffer = nil
        var effects: [WebRTCEffect] = []
        // The first answer that keeps the transport-wide number starts the stamping; later ones
        // keep it (the relay offers it under one id for the transport's life).
        if let id = answer.transportWideSequenceExtensionId, id != sentSequenceExtensionId {
            sentSequenceExtensionId = id
            effects.append(.congestionControl(CongestionControlSpec(sentSequenceExtensionId: id)))
        }
        if let client = answer.clientTransport {
            if case .awaitingDescription = phase {
                effects += adopt(client, context: context)
            } else if restartPending {
                restartPending = false
                switch restart(local: credentials, client: client) {
                case .failure(let error): return .failure(error)
                case .success(let restarted): effects += restarted
                }
            }
        }
        return .success((facts, effects))
    }

    /// An offered track as the SDP module writes it.
    static func description(of track: OfferedTrack) -> OutgoingTrackDescription {
        OutgoingTrackDescription(
            mid: track.mid, kind: track.kind == .audio ? .audio : .video,
            codec: CodecDescription(
                payloadType: track.payloadType, name: track.codec, clockRate: UInt32(clamping: track.clockRate),
                channels: track.channels, formatParameters: track.formatParameters),
            rtxPayloadType: track.rtxPayloadType, ssrc: track.ssrc, rtxSSRC: track.rtxSSRC, cname: track.cname, streamID: track.streamID,
            trackID: track.trackID)
    }

    // MARK: The handshake

    /// The client's ICE credentials and certificate fingerprints: checks must now name its
    /// ufrag, and the DTLS handshake runs (with any records that came early). Only the first
    /// description counts.
    private mutating func adopt(_ client: ClientTransportParameters, context: DTLSContext) -> [WebRTCEffect] {
        guard case .awaitingDescription(let early) = phase else { return [] }
        clientFingerprints = client.fingerprints
        var effects: [WebRTCEffect] = [.setRemoteICECredentials(ICECredentials(ufrag: client.iceUsernameFragment, password: client.icePassword))]
        let fingerprints = client.fingerprints.compactMap { DTLSFingerprint(sdpValue: "\($0.algorithm) \($0.value)") }
        let dtls: DTLSEndpoint
        do {
            dtls = try DTLSEndpoint(context: context, role: .server, expectedPeerFingerprints: fingerprints)
        } catch {
            return effects + end(.dtlsFailed, "the client's SDP has no usable certificate fingerprint (\(error))")
        }
        phase = .handshaking(dtls)
        for datagram in early {
            guard case .handshaking = phase else { break }
            effects += step(dtls.handleDatagram(datagram))
        }
        return effects
    }

    /// Sends a DTLS step's records and acts on its outcome.
    private mutating func step(_ result: DTLSStepResult) -> [WebRTCEffect] {
        var effects: [WebRTCEffect] = []
        if let remote, !result.datagrams.isEmpty { effects.append(.send(result.datagrams, to: remote)) }
        guard let newState = result.newState else { return effects }
        switch newState {
        case .connecting:
            return effects
        case .connected(let keys):
            guard case .handshaking(let dtls) = phase else { return effects }
            do {
                let inbound = try keys.makeReceiverSession()
                let outbound = try keys.makeSenderSession()
                phase = .connected(dtls)
                effects.append(.connectMedia(inbound: SRTPSessionHandoff(inbound), outbound: SRTPSessionHandoff(outbound), profile: keys.profile))
                effects.append(.event(.transportStateChanged(TransportStateChangedEvent(transportId: id, state: "connected"))))
                return effects
            } catch {
                return effects + end(.dtlsFailed, "the DTLS-SRTP keys could not be used: \(error)")
            }
        case .failed(let failure):
            return effects + end(.dtlsFailed, "the DTLS handshake failed: \(failure)")
        case .closed:
            return effects + end(nil, "the client closed DTLS (close_notify)")
        }
    }

    /// Gives up on the transport: the client hears why (failed with `code`, or closed), and
    /// its streams end (PublishFailed after DTLS, KeepLiveFailed after ICE).
    private mutating func end(_ code: ErrorCode?, _ reason: String) -> [WebRTCEffect] {
        if case .ended = phase { return [] }
        phase = .ended
        let unpublishReason: UnpublishReason = code == .iceFailed ? .keepLiveFailed : code == .dtlsFailed ? .publishFailed : .other
        return [
            .event(
                .transportStateChanged(
                    TransportStateChangedEvent(
                        transportId: id, state: code == nil ? "closed" : "failed", errorCode: code?.rawValue, reason: reason))),
            .ended(unpublishReason: unpublishReason, reason: reason),
        ]
    }
}
