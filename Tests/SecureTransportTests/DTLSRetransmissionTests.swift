import SecureTransport
import Testing

/// Retransmission on OpenSSL's clock, with timers shortened so the waits stay brief.
@Suite("DTLS retransmission")
struct DTLSRetransmissionTests {
    /// Longest a test waits for timers in total.
    static let deadline = Duration.seconds(5)

    @Test("A lost server flight is recovered by retransmission")
    func lostServerFlight() async throws {
        let loopback = try DTLSLoopback(
            initialRetransmissionTimeout: .milliseconds(20), maximumRetransmissionTimeout: .milliseconds(80))
        loopback.drops = { sender, _, _ in sender == .server }
        loopback.handshake()
        let lostFlight = loopback.serverDatagrams.count
        #expect(lostFlight > 0)
        #expect(loopback.keys == nil)
        loopback.drops = { _, _, _ in false }

        let sent = try await loopback.runTimers(for: Self.deadline) { loopback.keys != nil }
        #expect(loopback.keys != nil)
        #expect(sent.client + sent.server > 0)
        #expect(loopback.serverDatagrams.count > lostFlight)
        #expect(loopback.keys?.client.localKeyingMaterial == loopback.keys?.server.remoteKeyingMaterial)
    }

    @Test("A lost final flight is resent when the client retransmits")
    func lostFinalFlight() async throws {
        let loopback = try DTLSLoopback(
            initialRetransmissionTimeout: .milliseconds(20), maximumRetransmissionTimeout: .milliseconds(80))
        // Drop what the server sends once it is connected: its ChangeCipherSpec and Finished.
        loopback.drops = { [unowned server = loopback.server] sender, _, _ in
            sender == .server && server.state.keys != nil
        }
        loopback.handshake()
        #expect(loopback.server.state.keys != nil)
        #expect(loopback.client.state.keys == nil)
        let silentServer = loopback.server.nextTimeout
        #expect(silentServer == nil)
        loopback.drops = { _, _, _ in false }

        let sent = try await loopback.runTimers(for: Self.deadline) { loopback.client.state.keys != nil }
        #expect(sent.client > 0)
        #expect(loopback.keys?.client.localKeyingMaterial == loopback.keys?.server.remoteKeyingMaterial)
    }

    @Test("The retransmitted ClientHello repeats the message in a new record, and the timer backs off")
    func clientHelloRetransmission() async throws {
        // Long enough that a busy machine does not expire it inside a call by accident.
        let initial = Duration.milliseconds(100)
        let loopback = try DTLSLoopback(
            initialRetransmissionTimeout: initial, maximumRetransmissionTimeout: .milliseconds(400))
        #expect(loopback.client.nextTimeout == nil)
        let hello = try #require(loopback.client.start().datagrams.first)
        let firstTimer = try #require(loopback.client.nextTimeout)
        #expect(firstTimer <= initial)
        #expect(loopback.client.handleTimeout().datagrams.isEmpty)

        try await Task.sleep(for: firstTimer + .milliseconds(2))
        let retransmission = try #require(loopback.client.handleTimeout().datagrams.first)
        let original = try #require(DTLSRecordBuilder.records(in: hello).first)
        let repeated = try #require(DTLSRecordBuilder.records(in: retransmission).first)
        #expect(repeated.fragment == original.fragment)
        #expect(retransmission[5..<11] != hello[5..<11])  // record sequence number
        let secondTimer = try #require(loopback.client.nextTimeout)
        #expect(secondTimer > initial)
        #expect(secondTimer <= initial * 2)
    }

    @Test("A peer that never answers fails the endpoint with timeout")
    func silentPeerTimesOut() async throws {
        let certificate = try DTLSCertificate()
        let client = try DTLSEndpoint(
            context: DTLSContext(certificate: certificate), role: .client,
            expectedPeerFingerprints: [certificate.fingerprint],
            initialRetransmissionTimeout: .milliseconds(1), maximumRetransmissionTimeout: .milliseconds(2))
        // With timers this short OpenSSL may also retransmit, and give up, inside start().
        let started = client.start()
        var sent = started.datagrams.count
        var failure = started.newState?.failure
        let clock = ContinuousClock()
        let start = clock.now
        while failure == nil, clock.now - start < Self.deadline {
            try await Task.sleep(for: min(client.nextTimeout ?? .milliseconds(1), .milliseconds(5)) + .microseconds(200))
            let step = client.handleTimeout()
            sent += step.datagrams.count
            failure = step.newState?.failure
        }
        #expect(failure?.reason == .timeout)
        #expect(failure?.reason.rawValue == "dtls_timeout")
        // The ClientHello and OpenSSL's twelve retransmissions of it.
        #expect(sent == 13)
        #expect(client.nextTimeout == nil)
        #expect(client.handleTimeout().newState == nil)
    }
}
