import SecureTransport
import Testing

/// Garbage, truncated records, late records and close_notify.
@Suite("DTLS endpoint robustness and closing")
struct DTLSRobustnessTests {
    /// A deterministic generator, so a failing input can be reproduced.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// Inputs that are not DTLS records a peer would send.
    static func garbage() -> [[UInt8]] {
        var generator = SplitMix64(state: 0x5EED)
        var inputs: [[UInt8]] = [
            [22],
            [0x00, 0x01, 0x00, 0x08, 0x21, 0x12, 0xA4, 0x42],  // the start of a STUN request
            [0x80, 0x60, 0x00, 0x01, 0, 0, 0, 1, 0, 0, 0, 2],  // an RTP header
            Array(repeating: 0xFF, count: 1500),
            // A record header promising 200 bytes followed by 10.
            [22, 0xFE, 0xFD, 0, 0, 0, 0, 0, 0, 0, 9, 0, 200] + Array(repeating: 1, count: 10),
            // A ChangeCipherSpec out of nowhere.
            DTLSRecordBuilder.record(contentType: 20, sequenceNumber: 3, fragment: [1]),
            // An application data record at a future epoch.
            [23, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, 1, 0, 4, 1, 2, 3, 4],
        ]
        for _ in 0..<200 {
            let length = Int.random(in: 1...300, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Most in the range a demultiplexer hands to DTLS (RFC 7983).
            bytes[0] = UInt8.random(in: 20...63, using: &generator)
            inputs.append(bytes)
        }
        return inputs
    }

    /// Records that claim the protected epoch but are too short to carry a GCM nonce and tag,
    /// of every content type and length, some behind a valid-looking record in one datagram.
    static func shortProtectedRecords() -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for contentType: UInt8 in [20, 21, 22, 23] {
            for length in 0..<24 {
                inputs.append(
                    [contentType, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, UInt8(length + 1), 0, UInt8(length)]
                        + Array(repeating: 0xA5, count: length))
            }
        }
        let forged = [UInt8](repeating: 0x5A, count: 40)
        inputs.append(
            [23, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, 90, 0, 40] + forged
                + [21, 0xFE, 0xFD, 0, 1, 0, 0, 0, 0, 0, 91, 0, 2, 2, 40])
        return inputs
    }

    @Test("Garbage before, during and after a handshake is ignored and the handshake still succeeds")
    func garbageIsIgnored() async throws {
        // Retransmission recovers from the forged records below; OpenSSL gives up after twelve
        // retransmissions, so their backoff must span many seconds: on a machine busy with the
        // rest of the suite, 50 ms to 800 ms (about 7 s in all) ran out.
        let loopback = try DTLSLoopback(
            initialRetransmissionTimeout: .milliseconds(100), maximumRetransmissionTimeout: .seconds(2))
        for input in Self.garbage() + Self.shortProtectedRecords() {
            let step = loopback.server.handleDatagram(input)
            #expect(step.datagrams.isEmpty && step.newState == nil)
        }
        let hello = loopback.client.start().datagrams
        #expect(hello.count == 1)
        // Garbage reaches the client while it waits for the server's first flight. Nothing
        // answers it, though the timer may expire meanwhile and OpenSSL then resends its hello.
        for input in Self.garbage() + Self.shortProtectedRecords() {
            let step = loopback.client.handleDatagram(input)
            #expect(step.newState == nil)
            #expect(step.datagrams.allSatisfy { DTLSRecordBuilder.records(in: $0).first?.fragment.first == 1 })
        }
        loopback.queue(hello, from: .client)
        loopback.exchange()
        // A forged plaintext record can make a genuine one look replayed; retransmission
        // makes up for that.
        try await loopback.runTimers(for: .seconds(40)) { loopback.keys != nil }
        let keys = try #require(loopback.keys)

        for input in Self.garbage() + Self.shortProtectedRecords() {
            #expect(loopback.client.handleDatagram(input).newState == nil)
            #expect(loopback.server.handleDatagram(input).newState == nil)
        }
        #expect(loopback.client.state.keys?.localKeyingMaterial == keys.client.localKeyingMaterial)
        #expect(loopback.server.state.keys?.localKeyingMaterial == keys.server.localKeyingMaterial)
        // The association still works: the server reads the client's close_notify.
        let closing = loopback.client.close().datagrams
        #expect(closing.count == 1)
        if case .closed = loopback.server.handleDatagram(closing[0]).newState {
        } else {
            Issue.record("the server should have read close_notify, is \(loopback.server.state)")
        }
    }

    @Test("An empty datagram is ignored")
    func emptyDatagram() throws {
        let loopback = try DTLSLoopback()
        let step = loopback.server.handleDatagram([])
        #expect(step.datagrams.isEmpty && step.newState == nil)
        loopback.handshake()
        #expect(loopback.keys != nil)
    }

    @Test("Every truncation of a real flight is dropped, and the whole flight then goes through")
    func truncatedRecords() throws {
        let loopback = try DTLSLoopback()
        loopback.drops = { _, _, _ in true }
        loopback.handshake()
        let hello = try #require(loopback.clientDatagrams.first)
        for length in 1..<hello.count {
            let step = loopback.server.handleDatagram(Array(hello.prefix(length)))
            #expect(step.datagrams.isEmpty && step.newState == nil)
        }
        #expect(!loopback.server.handleDatagram(hello).datagrams.isEmpty)
    }

    @Test("A handshake survives every datagram being delivered twice")
    func duplicatedDatagrams() throws {
        let first = try DTLSLoopback()
        first.drops = { _, _, _ in true }
        var toServer = first.client.start().datagrams
        var exchanges = 0
        while !toServer.isEmpty, exchanges < 20 {
            var toClient: [[UInt8]] = []
            for datagram in toServer + toServer {
                toClient += first.server.handleDatagram(datagram).datagrams
            }
            toServer = []
            for datagram in toClient + toClient {
                toServer += first.client.handleDatagram(datagram).datagrams
            }
            exchanges += 1
        }
        #expect(first.keys != nil)
        #expect(first.keys?.client.localKeyingMaterial == first.keys?.server.remoteKeyingMaterial)
    }

    @Test("close_notify closes both sides, and closed endpoints ignore later datagrams")
    func closeNotify() throws {
        let loopback = try DTLSLoopback()
        loopback.handshake()
        #expect(loopback.keys != nil)
        let closing = loopback.client.close()
        if case .closed = closing.newState {
        } else {
            Issue.record("closing should report closed, got \(String(describing: closing.newState))")
        }
        #expect(closing.datagrams.count == 1)
        let alert = try #require(closing.datagrams.first.flatMap { DTLSRecordBuilder.records(in: $0).first })
        #expect(alert.contentType == DTLSRecordBuilder.alertContentType)
        #expect(alert.epoch == 1)  // encrypted, like everything after the handshake

        let received = loopback.server.handleDatagram(try #require(closing.datagrams.first))
        if case .closed = received.newState {
        } else {
            Issue.record("server should be closed, got \(String(describing: received.newState))")
        }
        // The server answers with its own close_notify, which the closed client ignores.
        let reply = try #require(received.datagrams.first.flatMap { DTLSRecordBuilder.records(in: $0).first })
        #expect(received.datagrams.count == 1)
        #expect(reply.contentType == DTLSRecordBuilder.alertContentType && reply.epoch == 1)
        let ignored = loopback.client.handleDatagram(received.datagrams[0])
        #expect(ignored.datagrams.isEmpty && ignored.newState == nil)
        #expect(loopback.server.state.keys == nil)
        let late = loopback.server.handleDatagram(try #require(loopback.clientDatagrams.last))
        #expect(late.datagrams.isEmpty && late.newState == nil)
        let again = loopback.client.close()
        #expect(again.datagrams.isEmpty && again.newState == nil)
        #expect(loopback.client.handleTimeout().datagrams.isEmpty)
    }

    @Test("Closing during the handshake sends nothing and ends the endpoint")
    func closeWhileConnecting() throws {
        let loopback = try DTLSLoopback()
        #expect(!loopback.client.start().datagrams.isEmpty)
        let closing = loopback.client.close()
        #expect(closing.datagrams.isEmpty)
        if case .closed = loopback.client.state {
        } else {
            Issue.record("client should be closed, is \(loopback.client.state)")
        }
        #expect(loopback.client.nextTimeout == nil)
        #expect(loopback.client.handleDatagram(loopback.clientDatagrams.first ?? [22]).datagrams.isEmpty)
    }

    @Test("A failed endpoint ignores later datagrams, timeouts and close")
    func failedEndpointStaysFailed() throws {
        let stranger = try DTLSCertificate()
        let loopback = try DTLSLoopback(serverExpects: { _ in [stranger.fingerprint] })
        loopback.handshake()
        #expect(loopback.server.state.failure?.reason == .fingerprintMismatch)
        for datagram in loopback.clientDatagrams + Self.garbage() {
            let step = loopback.server.handleDatagram(datagram)
            #expect(step.datagrams.isEmpty && step.newState == nil)
        }
        #expect(loopback.server.handleTimeout().newState == nil)
        #expect(loopback.server.close().newState == nil)
        #expect(loopback.server.state.failure?.reason == .fingerprintMismatch)
    }

    @Test("Invalid settings are refused up front")
    func invalidSettings() throws {
        let context = try DTLSContext(certificate: try DTLSCertificate())
        let fingerprint = try DTLSCertificate().fingerprint
        #expect(throws: DTLSError.noExpectedFingerprints) {
            try DTLSEndpoint(context: context, role: .client, expectedPeerFingerprints: [])
        }
        #expect(throws: DTLSError.maximumDatagramSizeTooSmall(255)) {
            try DTLSEndpoint(
                context: context, role: .client, expectedPeerFingerprints: [fingerprint],
                maximumDatagramSize: 255)
        }
        #expect(throws: DTLSError.invalidRetransmissionTimeouts) {
            try DTLSEndpoint(
                context: context, role: .client, expectedPeerFingerprints: [fingerprint],
                initialRetransmissionTimeout: .seconds(2), maximumRetransmissionTimeout: .seconds(1))
        }
        #expect(throws: DTLSError.invalidRetransmissionTimeouts) {
            try DTLSEndpoint(
                context: context, role: .client, expectedPeerFingerprints: [fingerprint],
                initialRetransmissionTimeout: .zero)
        }
        #expect(throws: DTLSError.invalidSRTPProfiles) {
            try DTLSContext(certificate: try DTLSCertificate(), srtpProfiles: [])
        }
        #expect(throws: DTLSError.invalidSRTPProfiles) {
            try DTLSContext(certificate: try DTLSCertificate(), srtpProfiles: [.aeadAES128GCM, .aeadAES128GCM])
        }
    }
}
