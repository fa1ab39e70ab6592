import Foundation
import SecureTransport
import Testing

/// Handshakes over real UDP on 127.0.0.1 with GnuTLS's command-line tools, an independent
/// DTLS implementation.
///
/// GnuTLS 3.7 (Debian 12) implements only the AES-CM and NULL DTLS-SRTP profiles, not the
/// AEAD ones, so these handshakes negotiate AES_CM_128_HMAC_SHA1_80 while this side offers
/// AEAD_AES_128_GCM first: that also shows an unknown profile in the offer is skipped.
@Suite("DTLS interoperability with GnuTLS", .serialized)
struct DTLSGnuTLSInteropTests {
    /// Longest any exchange with the peer process may take.
    static let limit = Duration.seconds(10)
    /// The DTLS-SRTP exporter output for AES-CM-80: two 16-byte keys and two 14-byte salts.
    static let cm80ExportLength = 60

    @Test("Our server with gnutls-cli: a fragmented ClientHello, the same keys on both sides, close_notify")
    func serverWithGnuTLSClient() async throws {
        try #require(DTLSGnuTLSPeer.isAvailable, "GnuTLS's tools are missing: install Debian's gnutls-bin")
        let peer = try await DTLSGnuTLSPeer()
        let socket = try DTLSUDPSocket()
        let certificate = try DTLSCertificate()
        let server = try DTLSEndpoint(
            context: DTLSContext(certificate: certificate), role: .server,
            expectedPeerFingerprints: [peer.fingerprint], initialRetransmissionTimeout: .milliseconds(200))
        let savedCertificatePath = peer.process.path("server.pem")
        try peer.process.launch(
            "gnutls-cli",
            [
                "--udp", "--port", String(socket.port), "127.0.0.1", "--insecure",
                // GnuTLS's hello is about 230 bytes: 150 splits it into two fragments.
                "--mtu", "150",
                "--x509certfile", peer.certificatePath, "--x509keyfile", peer.keyPath,
                "--srtp-profiles", "SRTP_AES128_CM_HMAC_SHA1_80",
                "--keymatexport", "EXTRACTOR-dtls_srtp", "--keymatexportsize", String(Self.cm80ExportLength),
                "--save-cert", savedCertificatePath,
            ])

        let traffic = await socket.bridge(server, peerPort: nil, within: Self.limit) {
            server.state.isFinished || peer.process.output.contains("- Handshake was completed") || peer.process.hasExited
        }
        let helloFragments = traffic.received.filter {
            DTLSRecordBuilder.records(in: $0).first?.fragment.first == 1 && DTLSHandshakeTests.carriesHandshakeFragment($0)
        }
        #expect(helloFragments.count >= 2)
        let keys = try #require(
            server.state.keys, "server state \(server.state); gnutls-cli said:\n\(peer.process.output)")
        #expect(keys.profile == .aesCM128HMACSHA1_80)
        #expect(server.peerFingerprint == peer.fingerprint)
        await socket.bridge(server, peerPort: nil, within: Self.limit) {
            peer.process.output.contains("- Handshake was completed")
        }
        #expect(peer.process.printedValue(after: "- SRTP profile: ") == "SRTP_AES128_CM_HMAC_SHA1_80")
        let exported = try #require(
            peer.process.printedValue(after: "- Key material: "), "gnutls-cli said:\n\(peer.process.output)")
        #expect(exported == keys.exporterLayout(role: .server).hex)
        let savedCertificate = try String(contentsOfFile: savedCertificatePath, encoding: .utf8)
        let presented = try #require(DTLSPeerProcess.derFromPEM(savedCertificate))
        #expect(presented == certificate.derEncoded)

        // At the end of its input gnutls-cli says goodbye with close_notify.
        peer.process.closeInput()
        await socket.bridge(server, peerPort: nil, within: Self.limit) { server.state.isFinished }
        if case .closed = server.state {
        } else {
            Issue.record("server should be closed by gnutls-cli's close_notify, is \(server.state)")
        }
        // It waits for close_notify in return, and exits once it has it.
        #expect(await peer.process.finish(within: .seconds(2)))
    }

    @Test("Our client with gnutls-serv: cookie exchange, fragmented flights, GnuTLS's certificate checked")
    func clientWithGnuTLSServer() async throws {
        try #require(DTLSGnuTLSPeer.isAvailable, "GnuTLS's tools are missing: install Debian's gnutls-bin")
        let peer = try await DTLSGnuTLSPeer()
        let socket = try DTLSUDPSocket()
        // A port nobody uses: the probe socket is closed again at once.
        let serverPort = try DTLSUDPSocket().port
        try peer.process.launch(
            "gnutls-serv",
            [
                "--udp", "--echo", "--port", String(serverPort), "--mtu", "300",
                "--x509certfile", peer.certificatePath, "--x509keyfile", peer.keyPath,
                "--require-client-cert", "--srtp-profiles", "SRTP_AES128_CM_HMAC_SHA1_80",
            ])
        try #require(
            await peer.process.waitForLine(startingWith: "UDP Echo Server listening on IPv4", within: Self.limit) != nil,
            "gnutls-serv did not start:\n\(peer.process.output)")

        let client = try DTLSEndpoint(
            context: DTLSContext(certificate: try DTLSCertificate()), role: .client,
            expectedPeerFingerprints: [peer.fingerprint], maximumDatagramSize: 300,
            initialRetransmissionTimeout: .milliseconds(200))
        let hello = client.start().datagrams
        socket.send(hello, to: serverPort)
        var traffic = await socket.bridge(client, peerPort: serverPort, within: Self.limit) {
            client.state.keys != nil || client.state.isFinished
        }
        traffic.sent.insert(contentsOf: hello, at: 0)
        let keys = try #require(
            client.state.keys, "client state \(client.state); gnutls-serv said:\n\(peer.process.output)")
        #expect(keys.profile == .aesCM128HMACSHA1_80)
        #expect(keys.localKeyingMaterial.count == 30 && keys.remoteKeyingMaterial.count == 30)
        #expect(client.peerFingerprint == peer.fingerprint)
        // gnutls-serv demands a cookie first: HelloVerifyRequest (handshake type 3), then a
        // second ClientHello.
        #expect(traffic.received.first.flatMap { DTLSRecordBuilder.records(in: $0).first?.fragment.first } == 3)
        #expect(traffic.sent.filter { DTLSRecordBuilder.records(in: $0).first?.fragment.first == 1 }.count >= 2)
        #expect(traffic.sent.allSatisfy { $0.count <= 300 })
        #expect(traffic.received.allSatisfy { $0.count <= 300 })

        socket.send(client.close().datagrams, to: serverPort)
        if case .closed = client.state {
        } else {
            Issue.record("client should be closed, is \(client.state)")
        }
        _ = await peer.process.finish(within: .milliseconds(100))
    }
}
