import SecureTransport

/// A client and a server endpoint wired back to back in memory, for handshake tests.
///
/// Every datagram either side produces is queued for the other; a test can drop or alter
/// datagrams on the way and look at everything that was sent.
final class DTLSLoopback {
    /// The client endpoint.
    let client: DTLSEndpoint
    /// The server endpoint.
    let server: DTLSEndpoint
    /// Every datagram the client produced, in order, including dropped ones.
    private(set) var clientDatagrams: [[UInt8]] = []
    /// Every datagram the server produced, in order, including dropped ones.
    private(set) var serverDatagrams: [[UInt8]] = []
    /// Datagrams on their way to the server.
    private var toServer: [[UInt8]] = []
    /// Datagrams on their way to the client.
    private var toClient: [[UInt8]] = []
    /// Decides whether a datagram is lost: sender, index among the sender's datagrams, bytes.
    var drops: (DTLSRole, Int, [UInt8]) -> Bool = { _, _, _ in false }

    /// Endpoints with fresh certificates, each expecting the other's fingerprint.
    convenience init(
        clientProfiles: [SRTPProfile] = DTLSContext.defaultSRTPProfiles,
        serverProfiles: [SRTPProfile] = DTLSContext.defaultSRTPProfiles,
        clientMaximumDatagramSize: Int = DTLSEndpoint.defaultMaximumDatagramSize,
        serverMaximumDatagramSize: Int = DTLSEndpoint.defaultMaximumDatagramSize,
        clientExpects: ((DTLSCertificate) -> [DTLSFingerprint])? = nil,
        serverExpects: ((DTLSCertificate) -> [DTLSFingerprint])? = nil,
        initialRetransmissionTimeout: Duration = .seconds(1),
        maximumRetransmissionTimeout: Duration = .seconds(60)
    ) throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let client = try DTLSEndpoint(
            context: DTLSContext(certificate: clientCertificate, srtpProfiles: clientProfiles),
            role: .client,
            expectedPeerFingerprints: clientExpects?(serverCertificate) ?? [serverCertificate.fingerprint],
            maximumDatagramSize: clientMaximumDatagramSize,
            initialRetransmissionTimeout: initialRetransmissionTimeout,
            maximumRetransmissionTimeout: maximumRetransmissionTimeout)
        let server = try DTLSEndpoint(
            context: DTLSContext(certificate: serverCertificate, srtpProfiles: serverProfiles),
            role: .server,
            expectedPeerFingerprints: serverExpects?(clientCertificate) ?? [clientCertificate.fingerprint],
            maximumDatagramSize: serverMaximumDatagramSize,
            initialRetransmissionTimeout: initialRetransmissionTimeout,
            maximumRetransmissionTimeout: maximumRetransmissionTimeout)
        self.init(client: client, server: server)
    }

    /// Wires two existing endpoints.
    init(client: DTLSEndpoint, server: DTLSEndpoint) {
        self.client = client
        self.server = server
    }

    /// Starts both endpoints and exchanges datagrams until neither has anything to send.
    ///
    /// - Returns: The number of datagrams delivered.
    @discardableResult
    func handshake(maximumExchanges: Int = 100) -> Int {
        queue(server.start().datagrams, from: .server)
        queue(client.start().datagrams, from: .client)
        return exchange(maximumExchanges: maximumExchanges)
    }

    /// Delivers queued datagrams back and forth until the queues are empty.
    @discardableResult
    func exchange(maximumExchanges: Int = 100) -> Int {
        var delivered = 0
        for _ in 0..<maximumExchanges where !toServer.isEmpty || !toClient.isEmpty {
            let forServer = toServer
            toServer = []
            for datagram in forServer {
                queue(server.handleDatagram(datagram).datagrams, from: .server)
                delivered += 1
            }
            let forClient = toClient
            toClient = []
            for datagram in forClient {
                queue(client.handleDatagram(datagram).datagrams, from: .client)
                delivered += 1
            }
        }
        return delivered
    }

    /// Queues datagrams produced by `sender` outside ``exchange(maximumExchanges:)``, for
    /// example by a timeout or a close.
    func queue(_ datagrams: [[UInt8]], from sender: DTLSRole) {
        for datagram in datagrams {
            switch sender {
            case .client:
                let index = clientDatagrams.count
                clientDatagrams.append(datagram)
                if !drops(.client, index, datagram) {
                    toServer.append(datagram)
                }
            case .server:
                let index = serverDatagrams.count
                serverDatagrams.append(datagram)
                if !drops(.server, index, datagram) {
                    toClient.append(datagram)
                }
            }
        }
    }

    /// Lets the endpoints' retransmission timers run, delivering what they send, until
    /// `done` holds or `limit` has passed. Sleeps only as long as the earlier timer needs
    /// (and never more than 50 ms at a time).
    ///
    /// - Returns: How many datagrams each side sent from its timer.
    @discardableResult
    func runTimers(for limit: Duration, until done: () -> Bool) async throws -> (client: Int, server: Int) {
        var sent = (client: 0, server: 0)
        let clock = ContinuousClock()
        let start = clock.now
        while !done(), clock.now - start < limit {
            let waits = [client.nextTimeout, server.nextTimeout].compactMap { $0 }
            let wait = min(waits.min() ?? .milliseconds(5), .milliseconds(50))
            try await Task.sleep(for: wait + .milliseconds(1))
            let fromClient = client.handleTimeout().datagrams
            let fromServer = server.handleTimeout().datagrams
            sent.client += fromClient.count
            sent.server += fromServer.count
            queue(fromClient, from: .client)
            queue(fromServer, from: .server)
            exchange()
        }
        return sent
    }

    /// Both endpoints' keys, when both are connected.
    var keys: (client: DTLSSRTPKeys, server: DTLSSRTPKeys)? {
        guard let client = client.state.keys, let server = server.state.keys else { return nil }
        return (client, server)
    }
}
