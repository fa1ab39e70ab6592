import Foundation
import ICE
import MediaPlane
import Protocol
import RoomEngine
import SDP
import SecureTransport
import Testing

@testable import PKRelayServer

/// ``WebRTCSession`` on its own, with no socket and no relay: its events go in, its effects
/// come out. The DTLS peer is a real OpenSSL client endpoint, and the SDP is the relay's own
/// negotiator's.
@Suite("WebRTC negotiation as a state machine")
struct WebRTCSessionTests {
    static let relayContext: DTLSContext = { try! DTLSContext(certificate: DTLSCertificate()) }()
    static let clientCertificate: DTLSCertificate = { try! DTLSCertificate() }()
    static let client = PeerEndpoint(host: "127.0.0.1", port: 50_000)!
    let negotiator = RelayNegotiator(capabilities: RelayCapabilities())

    func makeSession() -> WebRTCSession {
        WebRTCSession(id: 7, session: 3, credentials: ICECredentials(ufrag: "rlay", password: String(repeating: "r", count: 24)), sdpSessionID: 99)
    }

    func relay(_ session: WebRTCSession) -> RelayTransportDescription {
        let fingerprint = Self.relayContext.certificate.fingerprint
        return RelayTransportDescription(
            iceUsernameFragment: session.credentials.ufrag, icePassword: session.credentials.password,
            fingerprint: SDPFingerprint(algorithm: fingerprint.algorithm.rawValue, bytes: fingerprint.digest),
            candidateAddress: "127.0.0.1", candidatePort: 7702, sessionID: session.sdpSessionID, sessionVersion: 1)
    }

    /// A one-track VP8 publish offer from the test's client certificate.
    func publishOffer(fingerprint: String = WebRTCSessionTests.clientCertificate.fingerprint.sdpValue) -> String {
        WebRTCFailureTests.offer(ufrag: "clnt", fingerprint: fingerprint)
    }

    /// Runs a DTLS client against the session until neither side has anything to say; returns
    /// every effect the session produced.
    func handshake(_ session: inout WebRTCSession, client: DTLSEndpoint, firstFlight: [[UInt8]]) -> [WebRTCEffect] {
        var toRelay = firstFlight
        var effects: [WebRTCEffect] = []
        for _ in 0..<20 where !toRelay.isEmpty {
            var toClient: [[UInt8]] = []
            for datagram in toRelay {
                let produced = session.receive(datagram, from: Self.client)
                effects += produced
                for case .send(let records, let to) in produced {
                    #expect(to == Self.client)
                    toClient += records
                }
            }
            toRelay = toClient.flatMap { client.handleDatagram($0).datagrams }
        }
        return effects
    }

    func dtlsClient(expecting fingerprint: DTLSFingerprint = WebRTCSessionTests.relayContext.certificate.fingerprint) throws -> DTLSEndpoint {
        try DTLSEndpoint(context: DTLSContext(certificate: Self.clientCertificate), role: .client, expectedPeerFingerprints: [fingerprint])
    }

    @Test func aPublisherOfferGivesTracksAndAnAnswerThenTheHandshakeConnectsMedia() throws {
        var session = makeSession()
        let negotiation = try session.negotiatePublish(offer: publishOffer(), negotiator: negotiator, relay: relay(session)).get()
        #expect(negotiation.tracks.map(\.kind) == [.video] && negotiation.tracks[0].ssrc == 4242 && negotiation.tracks[0].codec == "VP8")
        #expect(negotiation.answerSDP.contains("a=setup:passive") && negotiation.answerSDP.contains("a=ice-lite"))
        #expect(session.purpose == .undecided, "nothing changes before the engine published")

        let adopted = session.published(negotiation, context: Self.relayContext)
        guard case .setRemoteICECredentials(let credentials)? = adopted.first, adopted.count == 1 else {
            Issue.record("\(adopted)")
            return
        }
        #expect(credentials.ufrag == "clnt")
        #expect(session.purpose == .publish)

        let client = try dtlsClient()
        let effects = handshake(&session, client: client, firstFlight: client.start().datagrams)
        #expect(session.isConnected)
        let connects = effects.compactMap { if case .connectMedia(_, _, let profile) = $0 { profile } else { nil } }
        #expect(connects.count == 1)
        let events = effects.compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(events == [.transportStateChanged(TransportStateChangedEvent(transportId: 7, state: "connected"))])
    }

    @Test func threeSimulcastRidsBecomeTheSmallMediumAndBigLayers() throws {
        let session = makeSession()
        let simulcast = publishOffer().replacingOccurrences(
            of: "a=ssrc:4242 cname:test\r\n",
            with: "a=extmap:4 \(HeaderExtensionURI.rtpStreamID)\r\na=rid:q send\r\na=rid:h send\r\na=rid:f send\r\na=simulcast:send q;h;f\r\n")
        let three = try session.negotiatePublish(offer: simulcast, negotiator: negotiator, relay: relay(session)).get()
        #expect(three.tracks.map(\.rid) == ["f", "h", "q"])
        #expect(three.tracks.map(\.videoStreamType) == [.big, .medium, .small])
        #expect(three.ridExtensionId == 4)
        // Two rids stay the dual stream.
        let two = try session.negotiatePublish(
            offer: simulcast.replacingOccurrences(of: "a=rid:h send\r\n", with: "").replacingOccurrences(of: "q;h;f", with: "q;f"),
            negotiator: negotiator, relay: relay(session)
        ).get()
        #expect(two.tracks.map(\.videoStreamType) == [.big, .small])
    }

    @Test func aPublisherOfferingTransportWideCongestionControlGetsFeedbackFromTheRelay() throws {
        var session = makeSession()
        let offer = publishOffer().replacingOccurrences(
            of: "a=rtcp-fb:96 nack pli\r\n",
            with: "a=rtcp-fb:96 nack pli\r\na=rtcp-fb:96 transport-cc\r\na=extmap:5 \(HeaderExtensionURI.transportWideSequenceNumber)\r\n")
        let negotiation = try session.negotiatePublish(offer: offer, negotiator: negotiator, relay: relay(session)).get()
        #expect(negotiation.answerSDP.contains("a=rtcp-fb:96 transport-cc"))
        #expect(negotiation.congestionControl == CongestionControlSpec(receivedSequenceExtensionId: 5))
        let adopted = session.published(negotiation, context: Self.relayContext)
        guard adopted.count == 2, case .congestionControl(let spec) = adopted[0], case .setRemoteICECredentials = adopted[1] else {
            Issue.record("\(adopted)")
            return
        }
        #expect(spec.receivedSequenceExtensionId == 5)

        // Without transport-wide congestion control in the relay's capabilities, none is set up.
        var plain = makeSession()
        let withoutFeedback = RelayNegotiator(capabilities: RelayCapabilities().withoutTransportWideCongestionControl())
        let refused = try plain.negotiatePublish(offer: offer, negotiator: withoutFeedback, relay: relay(plain)).get()
        #expect(refused.congestionControl == .none && !refused.answerSDP.contains("transport-cc"))
        #expect(plain.published(refused, context: Self.relayContext).count == 1)
    }

    @Test func recordsThatComeBeforeTheClientsSDPWaitAndAreUsedOnceItArrives() throws {
        var session = makeSession()
        let client = try dtlsClient()
        let hello = client.start().datagrams
        for datagram in hello { #expect(session.receive(datagram, from: Self.client).isEmpty) }
        let negotiation = try session.negotiatePublish(offer: publishOffer(), negotiator: negotiator, relay: relay(session)).get()
        let adopted = session.published(negotiation, context: Self.relayContext)
        let flight = adopted.flatMap { effect -> [[UInt8]] in if case .send(let records, _) = effect { records } else { [] } }
        #expect(!flight.isEmpty, "the waiting ClientHello is answered as soon as the fingerprints are known")
        let rest = handshake(&session, client: client, firstFlight: flight.flatMap { client.handleDatagram($0).datagrams })
        #expect(session.isConnected, "\(rest.count) effects")
    }

    @Test func aClientWhoseCertificateIsNotTheAnnouncedOneFailsWithPublishFailed() throws {
        var session = makeSession()
        let announced = try DTLSCertificate()
        let negotiation = try session.negotiatePublish(
            offer: publishOffer(fingerprint: announced.fingerprint.sdpValue), negotiator: negotiator, relay: relay(session)
        ).get()
        _ = session.published(negotiation, context: Self.relayContext)
        let client = try dtlsClient()
        let effects = handshake(&session, client: client, firstFlight: client.start().datagrams)
        let failed = effects.compactMap { effect -> TransportStateChangedEvent? in
            if case .event(.transportStateChanged(let changed)) = effect { changed } else { nil }
        }
        #expect(failed.map(\.state) == ["failed"] && failed.first?.errorCode == ErrorCode.dtlsFailed.rawValue)
        let ended = effects.compactMap { if case .ended(let reason, _) = $0 { reason } else { nil } }
        #expect(ended == [.publishFailed])
        #expect(session.receive([22, 254, 253], from: Self.client).isEmpty, "an ended session takes nothing more")
    }

    @Test func iceExpiringEndsTheTransportOnceWithKeepLiveFailed() {
        var session = makeSession()
        let effects = session.iceExpired(neverConnected: true, timeoutSeconds: 10)
        guard case .event(.transportStateChanged(let changed))? = effects.first, case .ended(.keepLiveFailed, let reason)? = effects.last else {
            Issue.record("\(effects)")
            return
        }
        #expect(changed.errorCode == ErrorCode.iceFailed.rawValue && changed.state == "failed")
        #expect(reason.contains("within 10 s"))
        #expect(session.iceExpired(neverConnected: false, timeoutSeconds: 10).isEmpty)
    }

    func track(sink: UInt32, mid: String, kind: TrackKind = .video) -> OfferedTrack {
        OfferedTrack(
            sinkId: sink, mid: mid, kind: kind, codec: kind == .video ? "VP8" : "opus", clockRate: kind == .video ? 90_000 : 48_000,
            channels: kind == .video ? nil : 2, formatParameters: nil, payloadType: kind == .video ? 96 : 111, rtxPayloadType: kind == .video ? 97 : nil,
            ssrc: 1000 + sink, rtxSSRC: kind == .video ? 2000 + sink : nil, cname: "alice", streamID: "alice", trackID: "alice-\(kind.rawValue)")
    }

    /// The client's answer to a relay offer: every offered codec accepted, active sections
    /// received, inactive ones inactive.
    func answer(to offer: String) -> String {
        let lines = offer.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        var sections: [[String]] = []
        for line in lines {
            if line.hasPrefix("m=") { sections.append([line]) } else if !sections.isEmpty { sections[sections.count - 1].append(line) }
        }
        let mids = sections.compactMap { $0.first { $0.hasPrefix("a=mid:") }.map { String($0.dropFirst(6)) } }
        var out = ["v=0", "o=- 5 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE \(mids.joined(separator: " "))", "a=msid-semantic:WMS *"]
        for section in sections {
            out.append(section[0])
            out.append("c=IN IP4 0.0.0.0")
            out += section.filter { $0.hasPrefix("a=mid:") || $0.hasPrefix("a=rtpmap:") || $0.hasPrefix("a=fmtp:") }
            out.append(section.contains("a=inactive") ? "a=inactive" : "a=recvonly")
            out += [
                "a=rtcp-mux", "a=ice-ufrag:clnt", "a=ice-pwd:\(String(repeating: "p", count: 24))",
                "a=fingerprint:\(Self.clientCertificate.fingerprint.sdpValue)", "a=setup:active",
            ]
        }
        return out.joined(separator: "\r\n") + "\r\n"
    }

    @Test func aReceivingTransportOffersOnceAtATimeAndTheAnswerSaysWhatBecameActive() throws {
        var session = makeSession()
        session.offer([track(sink: 1, mid: "0", kind: .audio), track(sink: 2, mid: "1")])
        #expect(session.purpose == .receive)
        let first = try #require(try session.nextOffer(negotiator: negotiator, relay: relay(session))?.get())
        #expect(first.revision == 1 && first.transportId == 7)
        // A change while the offer is out waits for its answer.
        session.offer([track(sink: 2, mid: "1")])
        #expect(session.nextOffer(negotiator: negotiator, relay: relay(session)) == nil)

        let wrong = session.answer(revision: 2, sdp: answer(to: first.sdp), negotiator: negotiator, context: Self.relayContext)
        guard case .failure(let error) = wrong else {
            Issue.record("a stale revision was accepted")
            return
        }
        #expect(error.code == .wrongState)

        let (facts, effects) = try session.answer(revision: 1, sdp: answer(to: first.sdp), negotiator: negotiator, context: Self.relayContext).get()
        #expect(facts.accepted == ["0", "1"] && facts.newlyActive == ["0", "1"] && facts.retransmission == ["1"])
        #expect(facts.slots.map(\.mid) == ["0", "1"] && facts.slots.map(\.kind) == [.audio, .video])
        guard case .setRemoteICECredentials? = effects.first else {
            Issue.record("the first answer names the client's transport: \(effects)")
            return
        }

        // The change made meanwhile is offered now: the audio section goes inactive.
        let second = try #require(try session.nextOffer(negotiator: negotiator, relay: relay(session))?.get())
        #expect(second.revision == 2)
        let (again, moreEffects) = try session.answer(revision: 2, sdp: answer(to: second.sdp), negotiator: negotiator, context: Self.relayContext).get()
        #expect(again.newlyActive.isEmpty && again.accepted == ["1"])
        #expect(again.slots.map(\.isActive) == [false, true])
        #expect(moreEffects.isEmpty, "only the first description starts the handshake")
        #expect(session.nextOffer(negotiator: negotiator, relay: relay(session)) == nil, "nothing changed since")
    }

    @Test func aPublishOfferOnAReceivingTransportIsRefused() {
        var session = makeSession()
        session.offer([track(sink: 1, mid: "0")])
        guard case .failure(let error) = session.negotiatePublish(offer: publishOffer(), negotiator: negotiator, relay: relay(session)) else {
            Issue.record("a receiving transport accepted a publish offer")
            return
        }
        #expect(error.code == .transportState)
    }
}
