import SecureTransport
import Testing

/// Handshakes over real UDP on 127.0.0.1 with pion's DTLS, negotiating AEAD_AES_128_GCM, in
/// both directions. Runs where Go and pion are installed (Debian: golang-go,
/// golang-github-pion-dtls.v2-dev).
@Suite("DTLS interoperability with pion", .serialized, .enabled(if: DTLSPionPeer.isAvailable))
struct DTLSPionInteropTests {
    /// Longest any exchange with the peer process may take.
    static let limit = Duration.seconds(10)
    /// The IANA id of AEAD_AES_128_GCM.
    static let gcmProfileID = "7"

    /// Checks what pion printed against our side's view of the handshake.
    static func checkAgreement(peer: DTLSPionPeer, keys: DTLSSRTPKeys, role: DTLSRole, certificate: DTLSCertificate) throws {
        #expect(keys.profile == .aeadAES128GCM)
        #expect(peer.process.printedValue(after: "profile: ") == gcmProfileID)
        let material = try #require(peer.process.printedValue(after: "material: "), "pion said:\n\(peer.process.output)")
        #expect(material == keys.exporterLayout(role: role).hex)
        #expect(peer.process.printedValue(after: "peer: ") == certificate.fingerprint.digest.hex)
    }

    @Test("Our server with a pion client negotiates GCM and both export the same keys")
    func serverWithPionClient() async throws {
        let peer = try await DTLSPionPeer()
        let socket = try DTLSUDPSocket()
        try peer.launch(.client, address: "127.0.0.1:\(socket.port)")
        let pionFingerprint = try #require(await peer.fingerprint(within: Self.limit), "pion said:\n\(peer.process.output)")
        let certificate = try DTLSCertificate()
        let server = try DTLSEndpoint(
            context: DTLSContext(certificate: certificate), role: .server,
            expectedPeerFingerprints: [pionFingerprint], initialRetransmissionTimeout: .milliseconds(200))

        // pion prints its view, then closes at once: the server may be closed again before
        // this side looks, so take the keys from the transition.
        let traffic = await socket.bridge(server, peerPort: nil, within: Self.limit) {
            server.state.isFinished || (server.state.keys != nil && peer.process.printedValue(after: "peer: ") != nil)
        }
        let keys = try #require(traffic.keys, "server state \(server.state); pion said:\n\(peer.process.output)")
        #expect(server.peerFingerprint == pionFingerprint)
        _ = await peer.process.waitForLine(startingWith: "peer: ", within: Self.limit)
        try Self.checkAgreement(peer: peer, keys: keys, role: .server, certificate: certificate)

        // pion closes with close_notify once it has printed.
        await socket.bridge(server, peerPort: nil, within: Self.limit) { server.state.isFinished }
        if case .closed = server.state {
        } else {
            Issue.record("server should be closed by pion's close_notify, is \(server.state)")
        }
        #expect(await peer.process.finish(within: .seconds(2)))
    }

    @Test("Our client with a pion server negotiates GCM and both export the same keys")
    func clientWithPionServer() async throws {
        let peer = try await DTLSPionPeer()
        let socket = try DTLSUDPSocket()
        try peer.launch(.server, address: "127.0.0.1:0")
        let pionFingerprint = try #require(await peer.fingerprint(within: Self.limit), "pion said:\n\(peer.process.output)")
        let port = try #require(
            await peer.process.waitForLine(startingWith: "listening: ", within: Self.limit).flatMap { UInt16($0) },
            "pion said:\n\(peer.process.output)")
        let certificate = try DTLSCertificate()
        let client = try DTLSEndpoint(
            context: DTLSContext(certificate: certificate), role: .client,
            expectedPeerFingerprints: [pionFingerprint], initialRetransmissionTimeout: .milliseconds(200))

        socket.send(client.start().datagrams, to: port)
        let traffic = await socket.bridge(client, peerPort: port, within: Self.limit) {
            client.state.isFinished || (client.state.keys != nil && peer.process.printedValue(after: "peer: ") != nil)
        }
        let keys = try #require(traffic.keys, "client state \(client.state); pion said:\n\(peer.process.output)")
        #expect(client.peerFingerprint == pionFingerprint)
        _ = await peer.process.waitForLine(startingWith: "peer: ", within: Self.limit)
        try Self.checkAgreement(peer: peer, keys: keys, role: .client, certificate: certificate)

        await socket.bridge(client, peerPort: port, within: Self.limit) { client.state.isFinished }
        if case .closed = client.state {
        } else {
            Issue.record("client should be closed by pion's close_notify, is \(client.state)")
        }
        #expect(await peer.process.finish(within: .seconds(2)))
    }
}
