import ICE
import RTPWire

extension MediaCore {
    /// RFC 7983 demultiplexing on the shard's WebRTC port: STUN finds its transport by USERNAME; DTLS,
    /// RTP and RTCP by the address that passed that transport's ICE checks.
    func handleWebRTCDatagram(_ buffer: UnsafeMutableRawPointer, length: Int, from endpoint: PeerEndpoint) {
        guard length > 0, length <= Self.maximumPacketSize else {
            counters.packetsIn &+= 1
            counters.drop(length == 0 ? .truncated : .oversized)
            return
        }
        let packet = UnsafeRawBufferPointer(start: buffer, count: length)
        let kind = PacketDemultiplexer.classify(packet)
        // Handshakes and checks change what transports can send: after what came before them.
        if kind != .rtp, kind != .rtcp, forwardRunCount > 0 { forwardRun() }
        switch kind {
        case .stun:
            counters.packetsIn &+= 1
            handleSTUN(packet, from: endpoint)
        case .dtls:
            counters.packetsIn &+= 1
            guard let transport = webRTCByAddress[endpoint.key] else {
                counters.drop(.unexpectedSource)
                return
            }
            transport.report.packetsIn &+= 1
            // Handshake traffic, a few records per transport: the copy is not on the media path.
            events.yield(.dtlsDatagram(transportId: transport.id, datagram: Array(packet), from: endpoint))
        case .rtp, .rtcp:
            guard let transport = webRTCByAddress[endpoint.key] else {
                counters.packetsIn &+= 1
                counters.drop(.unexpectedSource)
                return
            }
            handleDatagram(on: transport, buffer: buffer, length: length, from: endpoint)
        case .unknown:
            counters.packetsIn &+= 1
            counters.drop(.notRTP)
        }
    }

    /// Answers an ICE connectivity check for the transport whose local ufrag it names.
    func handleSTUN(_ packet: UnsafeRawBufferPointer, from endpoint: PeerEndpoint) {
        guard let message = try? STUNMessage(parsing: packet), let username = message.username(in: packet),
            let transport = webRTCByUfrag[ICEUsernameKey.key(ofUsername: username)], transport.ice != nil
        else {
            counters.drop(.stunRejected)
            return
        }
        // An endpoint whose IPv6 entry went to another peer, or whose connection closed, gets
        // no answer: the check comes again from a live one.
        guard let source = output.stunAddress(of: endpoint) else {
            counters.drop(.stunRejected)
            return
        }
        transport.report.packetsIn &+= 1
        let outcome = transport.ice!.handleBindingRequest(packet, from: source, at: nanoseconds(nowMs), response: stunResponse)
        switch outcome {
        case .respond(let length, let event):
            sendSTUN(length: length, to: endpoint)
            route(endpoint, to: transport)
            if case .selectedAddressChanged = event {
                select(endpoint, for: transport)
            } else if transport.remoteKey == 0 {
                // A valid check before any nomination: a peer may start DTLS on this pair
                // already, so answer it there until a nomination says otherwise.
                select(endpoint, for: transport)
            } else if transport.remoteKey != endpoint.key, transport.ice!.selectedAddress == source {
                // The selected address under a new name (its IPv6 entry was freed and taken
                // again): media follows the name that now reaches it.
                select(endpoint, for: transport)
            }
        case .respondError(let length, _):
            counters.drop(.stunRejected)
            sendSTUN(length: length, to: endpoint)
        case .drop:
            counters.drop(.stunRejected)
        }
    }

    /// Routes an address that passed a check to `transport`: the last transport checked from
    /// an address takes its datagrams. A transport keeps at most ``maximumICEAddresses``; past
    /// that the oldest one it does not send to is forgotten, so that one client cannot hold a
    /// route (and an IPv6 peer entry) per address it can send from.
    func route(_ endpoint: PeerEndpoint, to transport: TransportState) {
        let key = endpoint.key
        if webRTCByAddress[key] !== transport { webRTCByAddress[key] = transport }
        guard !transport.iceAddressKeys.contains(key) else { return }
        if transport.iceAddressKeys.count >= Self.maximumICEAddresses,
            let oldest = transport.iceAddressKeys.firstIndex(where: { $0 != transport.remoteKey })
        {
            let forgotten = transport.iceAddressKeys.remove(at: oldest)
            if webRTCByAddress[forgotten] === transport { webRTCByAddress[forgotten] = nil }
        }
        transport.iceAddressKeys.append(key)
    }

    func select(_ endpoint: PeerEndpoint, for transport: TransportState) {
        guard transport.remoteKey != endpoint.key else { return }
        // Datagrams a pacer holds were prepared for the old address: they go to the new one,
        // never to a stale address of another family.
        if transport.pending > 0 { transport.sendLayout.redirect(count: transport.pending, to: endpoint) }
        transport.remote = endpoint
        transport.remoteKey = endpoint.key
        events.yield(.iceSelected(transportId: transport.id, remote: endpoint))
    }

    func sendSTUN(length: Int, to endpoint: PeerEndpoint) {
        guard length > 0, length <= stunResponse.count else { return }
        if output.sendFromWebRTCSocket(UnsafeRawBufferPointer(rebasing: stunResponse[0..<length]), to: endpoint) {
            counters.packetsOut &+= 1
            counters.bytesOut &+= UInt64(length)
            // One sendto: a call and a message of its own.
            counters.sendCalls &+= 1
            counters.sendMessages &+= 1
        } else {
            // A non-blocking send refuses what does not fit the socket's buffer.
            counters.drop(.sendBufferFull)
        }
    }

    /// Ends the media of WebRTC transports whose peer stopped checking (RFC 7675) or never
    /// started, and tells the control plane, which closes them.
    func checkICEConsent() {
        let now = nanoseconds(nowMs)
        for transport in transports.values where transport.sharesSocket {
            // Until the peer's SDP arrives nothing can connect: no clock runs yet.
            guard transport.ice != nil, transport.ice!.remoteCredentials != nil || transport.ice!.isConnected,
                let event = transport.ice!.checkConsent(at: now)
            else { continue }
            if case .expired(let reason) = event {
                let neverConnected = reason == .neverConnected
                forgetWebRTCRoutes(of: transport)
                transport.remoteKey = 0
                events.yield(.iceExpired(transportId: transport.id, neverConnected: neverConnected))
            }
        }
    }

    /// An ICE-TCP connection closed: its client's datagrams no longer reach a transport through
    /// it, and a transport that sent there waits for a check on another path.
    func streamClosed(_ endpoint: PeerEndpoint) {
        let key = endpoint.key
        webRTCByAddress[key] = nil
        // Every transport a check on the connection ever selected, not only its last owner.
        for transport in transports.values where transport.sharesSocket {
            transport.iceAddressKeys.removeAll { $0 == key }
            if transport.remoteKey == key { transport.remoteKey = 0 }
        }
    }

    func forgetWebRTCRoutes(of transport: TransportState) {
        for key in transport.iceAddressKeys where webRTCByAddress[key] === transport { webRTCByAddress[key] = nil }
        transport.iceAddressKeys.removeAll()
        if let agent = transport.ice {
            let key = ICEUsernameKey.key(ofUfrag: agent.localCredentials.ufrag.utf8)
            if webRTCByUfrag[key] === transport { webRTCByUfrag[key] = nil }
        }
    }

    @inline(__always)
    func nanoseconds(_ milliseconds: Int64) -> UInt64 { UInt64(max(0, milliseconds)) &* 1_000_000 }
}
