import SecureTransport

extension DTLSUDPSocket {
    /// What went over the socket while bridging.
    struct BridgedTraffic {
        /// Datagrams sent to the peer, in order.
        var sent: [[UInt8]] = []
        /// Datagrams received from the peer, in order.
        var received: [[UInt8]] = []
        /// The keys, if the endpoint connected meanwhile (it may have been closed since).
        var keys: DTLSSRTPKeys?
    }

    /// Carries datagrams between `endpoint` and the peer at 127.0.0.1:`peerPort`, and runs
    /// the endpoint's timer, until `done` holds or `limit` passes. Without a port, the peer
    /// is whoever sends first. Between datagrams it sleeps rather than blocks, so the thread goes
    /// back to the cooperative pool (see ``DTLSPeerProcess/pause()``).
    @discardableResult
    func bridge(
        _ endpoint: DTLSEndpoint, peerPort: UInt16?, within limit: Duration, until done: () -> Bool
    ) async -> BridgedTraffic {
        var traffic = BridgedTraffic()
        var peer = peerPort
        let clock = ContinuousClock()
        let start = clock.now
        while !done(), clock.now - start < limit {
            var outgoing: [[UInt8]] = []
            let arrived = receive(waitingAtMost: 0)
            if let (datagram, port) = arrived {
                peer = peer ?? port
                if port == peer {
                    traffic.received.append(datagram)
                    let step = endpoint.handleDatagram(datagram)
                    outgoing += step.datagrams
                    traffic.keys = traffic.keys ?? step.newState?.keys
                }
            }
            if let timeout = endpoint.nextTimeout, timeout == .zero {
                outgoing += endpoint.handleTimeout().datagrams
            }
            if let peer {
                for datagram in outgoing {
                    send(datagram, to: peer)
                }
                traffic.sent += outgoing
            }
            if arrived == nil {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        return traffic
    }

    /// Sends `datagrams` to 127.0.0.1:`port`.
    func send(_ datagrams: [[UInt8]], to port: UInt16) {
        for datagram in datagrams {
            send(datagram, to: port)
        }
    }
}
