import Foundation
import ICE
import MediaPlane
import Protocol
import SDP
import SecureTransport
import Testing

@testable import PKRelayServer

/// ICE restarts of ``WebRTCSession``: new credentials on both sides, the DTLS association and
/// the negotiated media kept.
@Suite("WebRTC negotiation: ICE restart")
struct WebRTCSessionRestartTests {
    let base = WebRTCSessionTests()

    /// A publishing session whose DTLS handshake has completed.
    func connectedPublisher() throws -> WebRTCSession {
        var session = base.makeSession()
        let negotiation = try session.negotiatePublish(offer: base.publishOffer(), negotiator: base.negotiator, relay: base.relay(session)).get()
        _ = session.published(negotiation, context: WebRTCSessionTests.relayContext)
        let client = try base.dtlsClient()
        _ = base.handshake(&session, client: client, firstFlight: client.start().datagrams)
        #expect(session.isConnected)
        return session
    }

    func restartedCredentials(in effects: [WebRTCEffect]) -> (local: ICECredentials, remote: ICECredentials)? {
        effects.lazy.compactMap { if case .restartICE(let local, let remote) = $0 { (local, remote) } else { nil } }.first
    }

    @Test func aPublisherRestartIsAnsweredWithNewCredentialsAndKeepsTheConnection() throws {
        var session = try connectedPublisher()
        let before = session.credentials
        let offer = WebRTCFailureTests.offer(ufrag: "cln2", fingerprint: WebRTCSessionTests.clientCertificate.fingerprint.sdpValue)
        let (sdp, effects) = try session.restartPublishing(offer: offer, negotiator: base.negotiator, relay: base.relay(session)).get()
        let restarted = try #require(restartedCredentials(in: effects))
        #expect(restarted.local != before && session.credentials == restarted.local)
        #expect(restarted.remote.ufrag == "cln2")
        #expect(sdp.contains("a=ice-ufrag:\(restarted.local.ufrag)") && sdp.contains("a=ice-pwd:\(restarted.local.password)"))
        #expect(!sdp.contains("a=ice-ufrag:\(before.ufrag)"))
        #expect(effects.count == 1, "nothing but the new credentials: \(effects)")
        #expect(session.isConnected, "the DTLS association stays")
    }

    @Test func aRestartThatNamesAnotherCertificateIsRefused() throws {
        var session = try connectedPublisher()
        let before = session.credentials
        let other = try DTLSCertificate()
        let offer = WebRTCFailureTests.offer(ufrag: "cln2", fingerprint: other.fingerprint.sdpValue)
        guard case .failure(let error) = session.restartPublishing(offer: offer, negotiator: base.negotiator, relay: base.relay(session)) else {
            Issue.record("a restart with another certificate was accepted")
            return
        }
        #expect(error.code == ErrorCode.sdpRejected)
        #expect(session.credentials == before, "a refused restart changes nothing")
    }

    @Test func aRestartBeforeAnyDescriptionIsRefused() {
        var session = base.makeSession()
        guard case .failure(let error) = session.restartReceiving() else {
            Issue.record("a transport with nothing negotiated restarted")
            return
        }
        #expect(error.code == .transportState)
    }

    @Test func aReceivingRestartOffersNewCredentialsAndTakesTheClientsFromTheAnswer() throws {
        var session = base.makeSession()
        session.offer([base.track(sink: 1, mid: "0")])
        let first = try #require(try session.nextOffer(negotiator: base.negotiator, relay: base.relay(session))?.get())
        _ = try session.answer(revision: first.revision, sdp: base.answer(to: first.sdp), negotiator: base.negotiator, context: WebRTCSessionTests.relayContext)
            .get()
        let client = try base.dtlsClient()
        _ = base.handshake(&session, client: client, firstFlight: client.start().datagrams)
        #expect(session.isConnected)
        let before = session.credentials

        try session.restartReceiving().get()
        #expect(session.credentials != before)
        let offer = try #require(
            try session.nextOffer(negotiator: base.negotiator, relay: base.relay(session))?.get(), "a restart is offered even with no track changed")
        #expect(offer.sdp.contains("a=ice-ufrag:\(session.credentials.ufrag)"))
        let answer = base.answer(to: offer.sdp).replacingOccurrences(of: "a=ice-ufrag:clnt", with: "a=ice-ufrag:cln2")
        let (_, effects) = try session.answer(revision: offer.revision, sdp: answer, negotiator: base.negotiator, context: WebRTCSessionTests.relayContext)
            .get()
        let restarted = try #require(restartedCredentials(in: effects))
        #expect(restarted.local == session.credentials && restarted.remote.ufrag == "cln2")

        // The next answer, with no restart asked for, restarts nothing.
        session.offer([base.track(sink: 1, mid: "0"), base.track(sink: 2, mid: "1")])
        let third = try #require(try session.nextOffer(negotiator: base.negotiator, relay: base.relay(session))?.get())
        let (_, more) = try session.answer(
            revision: third.revision, sdp: base.answer(to: third.sdp).replacingOccurrences(of: "a=ice-ufrag:clnt", with: "a=ice-ufrag:cln2"),
            negotiator: base.negotiator, context: WebRTCSessionTests.relayContext
        ).get()
        #expect(restartedCredentials(in: more) == nil)
    }
}
