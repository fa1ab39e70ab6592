import SecureTransport

extension UDPTestSocket {
    /// Carries a DTLS handshake between `endpoint` and the relay at the socket's loopback address and `port`, running the
    /// endpoint's retransmission timer, until `done` holds, the endpoint has finished (failed or
    /// closed), or `limit` passes; whatever the endpoint has left to send then goes too.
    func handshake(_ endpoint: DTLSEndpoint, port: Int, within limit: Duration, until done: (DTLSEndpoint) -> Bool) async {
        var outgoing = endpoint.start().datagrams
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, !done(endpoint), !endpoint.state.isFinished {
            for datagram in outgoing { _ = send(datagram, port: port) }
            outgoing = []
            guard let incoming = await receive(timeoutMs: 200) else {
                outgoing = endpoint.handleTimeout().datagrams
                continue
            }
            outgoing = endpoint.handleDatagram(incoming).datagrams
        }
        for datagram in outgoing { _ = send(datagram, port: port) }
    }
}
