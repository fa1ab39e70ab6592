import SecureTransport
import Testing

/// A server endpoint answering browser-style ClientHellos built by hand: large, fragmented
/// over several datagrams, offering DTLS 1.3 next to 1.2.
@Suite("DTLS server and browser ClientHellos")
struct DTLSClientHelloTests {
    /// A fresh server endpoint that expects an arbitrary client certificate.
    static func server() throws -> DTLSEndpoint {
        let certificate = try DTLSCertificate()
        return try DTLSEndpoint(
            context: DTLSContext(certificate: certificate), role: .server,
            expectedPeerFingerprints: [try DTLSCertificate().fingerprint])
    }

    /// The parts of a ServerHello the tests check.
    struct ServerHello {
        var version: UInt16
        var cipherSuite: UInt16
        var extensions: [UInt16: [UInt8]]
    }

    /// Finds and parses the ServerHello among `datagrams`.
    static func serverHello(in datagrams: [[UInt8]]) -> ServerHello? {
        for datagram in datagrams {
            for record in DTLSRecordBuilder.records(in: datagram)
            where record.contentType == DTLSRecordBuilder.handshakeContentType && record.fragment.first == 2 {
                return parseServerHello(Array(record.fragment.dropFirst(DTLSRecordBuilder.handshakeHeaderLength)))
            }
        }
        return nil
    }

    /// Parses a ServerHello body; `nil` when it is cut short.
    static func parseServerHello(_ body: [UInt8]) -> ServerHello? {
        var offset = 2 + 32
        guard body.count > offset else { return nil }
        offset += 1 + Int(body[offset])  // session_id
        guard body.count >= offset + 5 else { return nil }
        let suite = UInt16(body[offset]) << 8 | UInt16(body[offset + 1])
        offset += 3  // cipher suite, compression method
        let extensionsEnd = offset + 2 + (Int(body[offset]) << 8 | Int(body[offset + 1]))
        offset += 2
        var extensions: [UInt16: [UInt8]] = [:]
        while offset + 4 <= min(extensionsEnd, body.count) {
            let type = UInt16(body[offset]) << 8 | UInt16(body[offset + 1])
            let length = Int(body[offset + 2]) << 8 | Int(body[offset + 3])
            guard offset + 4 + length <= body.count else { return nil }
            extensions[type] = Array(body[(offset + 4)..<(offset + 4 + length)])
            offset += 4 + length
        }
        return ServerHello(
            version: UInt16(body[0]) << 8 | UInt16(body[1]), cipherSuite: suite, extensions: extensions)
    }

    @Test("A fragmented 1.4 KB ClientHello offering DTLS 1.3 and 1.2 gets a DTLS 1.2 ServerHello with GCM")
    func browserHelloNegotiatesDTLS12() throws {
        let server = try Self.server()
        let hello = DTLSRecordBuilder.browserClientHello()
        #expect(hello.count > 1300)
        let datagrams = DTLSRecordBuilder.handshakeRecords(type: 1, body: hello, fragmentLength: 600)
        #expect(datagrams.count == 3)

        var replies: [[UInt8]] = []
        for datagram in datagrams {
            let step = server.handleDatagram(datagram)
            #expect(step.newState == nil)
            replies += step.datagrams
        }
        // Nothing is answered before the last fragment has arrived.
        let serverHello = try #require(Self.serverHello(in: replies))
        #expect(serverHello.version == 0xFEFD)
        #expect(serverHello.cipherSuite == 0xC02B)
        #expect(serverHello.extensions[0x000E] == [0x00, 0x02, 0x00, 0x07, 0x00])
        #expect(serverHello.extensions[0x002B] == nil)
        #expect(serverHello.extensions[0x0017] != nil)
        if case .connecting = server.state {
        } else {
            Issue.record("server should still be connecting, is \(server.state)")
        }
        #expect(server.nextTimeout != nil)
    }

    @Test("Fragments arriving out of order and duplicated are reassembled")
    func fragmentsOutOfOrder() throws {
        let server = try Self.server()
        let datagrams = DTLSRecordBuilder.handshakeRecords(
            type: 1, body: DTLSRecordBuilder.browserClientHello(), fragmentLength: 300)
        #expect(datagrams.count == 5)
        let order = [3, 0, 4, 0, 2, 1]
        var replies: [[UInt8]] = []
        for (position, index) in order.enumerated() {
            let step = server.handleDatagram(datagrams[index])
            if position < order.count - 1 {
                #expect(step.datagrams.isEmpty)
            }
            replies += step.datagrams
        }
        let serverHello = try #require(Self.serverHello(in: replies))
        #expect(serverHello.version == 0xFEFD)
        #expect(serverHello.extensions[0x000E] == [0x00, 0x02, 0x00, 0x07, 0x00])
    }

    @Test("The server picks GCM by its own order even when the browser lists AES-CM first")
    func serverOrderAgainstBrowserOrder() throws {
        let server = try Self.server()
        let hello = DTLSRecordBuilder.browserClientHello(srtpProfiles: [0x0001, 0x0007])
        var replies: [[UInt8]] = []
        for datagram in DTLSRecordBuilder.handshakeRecords(type: 1, body: hello, fragmentLength: 1000) {
            replies += server.handleDatagram(datagram).datagrams
        }
        let serverHello = try #require(Self.serverHello(in: replies))
        #expect(serverHello.extensions[0x000E] == [0x00, 0x02, 0x00, 0x07, 0x00])
    }

    @Test("A ClientHello with no usable cipher suite gets a handshake_failure alert, which fails a client")
    func handshakeFailureAlert() throws {
        let server = try Self.server()
        // TLS 1.3 suites and RSA key exchange only: nothing a DTLS 1.2 ECDSA server can use.
        let hello = DTLSRecordBuilder.browserClientHello(cipherSuites: [0x1301, 0x1302, 0xC02F])
        var replies: [[UInt8]] = []
        var lastState: DTLSState?
        for datagram in DTLSRecordBuilder.handshakeRecords(type: 1, body: hello, fragmentLength: 1000) {
            let step = server.handleDatagram(datagram)
            replies += step.datagrams
            lastState = step.newState ?? lastState
        }
        let failure = try #require(lastState?.failure)
        #expect(failure.reason == .handshakeFailure)
        #expect(failure.reason.rawValue == "dtls_handshake_failure")
        #expect(failure.sentAlert == 40)
        #expect(!failure.detail.isEmpty)
        let alerts = replies.flatMap(DTLSRecordBuilder.records(in:)).filter {
            $0.contentType == DTLSRecordBuilder.alertContentType
        }
        #expect(alerts.map(\.fragment) == [[2, 40]])

        // The same alert ends a client's handshake.
        let client = try DTLSEndpoint(
            context: DTLSContext(certificate: try DTLSCertificate()), role: .client,
            expectedPeerFingerprints: [try DTLSCertificate().fingerprint])
        #expect(!client.start().datagrams.isEmpty)
        let step = try #require(replies.first)
        let clientFailure = try #require(client.handleDatagram(step).newState?.failure)
        #expect(clientFailure.reason == .handshakeFailure)
        #expect(clientFailure.receivedAlert == 40)
        // A failed endpoint ignores whatever follows.
        let after = server.handleDatagram(DTLSRecordBuilder.handshakeRecords(type: 1, body: hello, fragmentLength: 2000)[0])
        #expect(after.datagrams.isEmpty && after.newState == nil)
    }
}
