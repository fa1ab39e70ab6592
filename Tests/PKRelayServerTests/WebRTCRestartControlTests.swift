import ICE
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

/// `restartIce` over the control channel, against a real ICE check and DTLS handshake on the
/// relay's shared WebRTC port: a publisher that moves to another address keeps its transport.
@Suite("WebRTC: restartIce over the control channel", .timeLimit(.minutes(1)))
struct WebRTCRestartControlTests {
    static func value(_ attribute: String, in sdp: String) -> String? {
        sdp.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=\(attribute):") }.map { String($0.dropFirst(attribute.count + 3)) }
    }

    /// A check from `socket` naming `relay`'s credentials; the relay's verdict.
    static func check(_ socket: UDPTestSocket, port: Int, localUfrag: String, relay: ICECredentials) async throws -> ICECheckResult? {
        let check = ICEConnectivityCheck(
            transactionID: .secureRandom(), localUfrag: localUfrag, remoteCredentials: relay, priority: 1, tieBreaker: 7, useCandidate: true)
        return await socket.exchange(check.request(), port: port, timeoutMs: 500).map { check.readResponse($0) }
    }

    @Test("a connected publisher restarts ICE from a new address: new credentials, old ones refused, the transport stays")
    func restartFromNewAddress() async throws {
        try await TestRelay.with { relay in
            let certificate = try DTLSCertificate()
            let (anchor, viewer, transport) = try await WebRTCFailureTests.publish(relay, room: "restart-1") { _ in
                WebRTCFailureTests.offer(ufrag: "clnt", fingerprint: certificate.fingerprint.sdpValue)
            }
            let ice = try #require(transport.ice)
            let before = ICECredentials(ufrag: ice.usernameFragment, password: ice.password)
            let wifi = try UDPTestSocket()
            defer { wifi.close() }
            guard case .success = try #require(try await Self.check(wifi, port: transport.port, localUfrag: "clnt", relay: before)) else {
                Issue.record("the first check failed")
                return
            }
            // DTLS to completion, as a browser does after its first check.
            let relayFingerprint = try #require(DTLSFingerprint(sdpValue: "sha-256 \(transport.dtls!.fingerprint.value)"))
            let dtls = try DTLSEndpoint(context: DTLSContext(certificate: certificate), role: .client, expectedPeerFingerprints: [relayFingerprint])
            func connected() -> Bool {
                if case .connected = dtls.state { return true }
                return false
            }
            await wifi.handshake(dtls, port: transport.port, within: .seconds(10)) { _ in connected() }
            _ = try await ForwardingHelpers.waitForSequence(anchor, from: 0, "the transport connects", [{ $0.transportStateChanged?.state == "connected" }])

            // The restart: a new offer with new ICE credentials and the same certificate.
            let restarted: RestartIceResult = try await anchor.request(
                "restartIce",
                RestartIceParams(
                    transportId: transport.transportId, sdp: WebRTCFailureTests.offer(ufrag: "cln2", fingerprint: certificate.fingerprint.sdpValue)))
            let answer = try #require(restarted.sdp)
            let after = try ICECredentials(ufrag: #require(Self.value("ice-ufrag", in: answer)), password: #require(Self.value("ice-pwd", in: answer)))
            #expect(after.ufrag != before.ufrag && after.password != before.password)
            #expect(answer.contains(transport.dtls!.fingerprint.value), "the relay keeps its certificate")

            // The old ufrag is nobody's now (no answer, as for a stranger); the new credentials
            // pass from the new network.
            #expect(try await Self.check(wifi, port: transport.port, localUfrag: "clnt", relay: before) == nil)
            let cellular = try UDPTestSocket()
            defer { cellular.close() }
            #expect(
                try await Self.check(cellular, port: transport.port, localUfrag: "cln2", relay: after)
                    == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: cellular.localPort)))

            // Refusals change nothing and name the problem.
            let otherCertificate = await WebRTCControlTests.errorCode {
                try await anchor.call(
                    "restartIce",
                    RestartIceParams(
                        transportId: transport.transportId,
                        sdp: WebRTCFailureTests.offer(ufrag: "cln3", fingerprint: try DTLSCertificate().fingerprint.sdpValue)))
            }
            #expect(otherCertificate?.code == 4018 && otherCertificate?.message.contains("certificate") == true, "\(String(describing: otherCertificate))")
            let noOffer = await WebRTCControlTests.errorCode { try await anchor.call("restartIce", RestartIceParams(transportId: transport.transportId)) }
            #expect(noOffer?.code == 4004, "\(String(describing: noOffer))")
            let unknown = await WebRTCControlTests.errorCode { try await anchor.call("restartIce", RestartIceParams(transportId: 9999)) }
            #expect(unknown?.code == 4003, "\(String(describing: unknown))")
            #expect(
                try await Self.check(cellular, port: transport.port, localUfrag: "cln2", relay: after)
                    == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: cellular.localPort)))

            // Nobody saw the stream end.
            let events = await viewer.events()
            #expect(!events.contains { $0.userUnpublishStream != nil }, "\(events)")
            #expect(!(await anchor.events()).contains { $0.transportStateChanged?.state == "failed" })
        }
    }
}
