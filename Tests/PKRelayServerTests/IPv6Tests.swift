import ICE
import MediaPlane
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

@testable import PKRelayServer

/// WebRTC over IPv6 beside IPv4 (dual stack) on ::1: the relay's IPv6 candidates, a publisher
/// that reaches it only over IPv6 (UDP, or ICE-TCP), real DTLS and SRTP, and a viewer on IPv4
/// that gets the publisher's media.
@Suite("IPv6: WebRTC on the dual-stack WebRTC ports", .timeLimit(.minutes(1)))
struct IPv6Tests {
    static let loopback6 = STUNAddress(ipv6High: 0, low: 1, port: 0)

    static func relayOnIPv6(_ configuration: inout RelayConfiguration) {
        configuration.media.bindAddress6 = "::1"
    }

    /// The `a=candidate` lines of an SDP.
    static func candidates(_ sdp: String) -> [String] {
        sdp.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }.map(String.init)
    }

    /// getStats' figures for a transport once it names its client.
    static func stats(_ client: ControlClient, transport: Int) async throws -> TransportStats? {
        var figures: TransportStats?
        let deadline = ContinuousClock.now + .seconds(5)
        repeat {
            let stats: GetStatsResult = try await client.request("getStats", GetStatsParams())
            figures = stats.transports.first { $0.transportId == transport }
            if figures?.remote == nil { try await Task.sleep(for: .milliseconds(100)) }
        } while figures?.remote == nil && ContinuousClock.now < deadline
        return figures
    }

    /// `pkrelay_transport_paths` for one path, once it is above 0 (the data plane reports once
    /// a second) or as it is after five seconds.
    static func paths(_ relay: TestRelay, protocol: String, family: String) async throws -> UInt64 {
        let series = "pkrelay_transport_paths{protocol=\"\(`protocol`)\",family=\"\(family)\"}"
        let deadline = ContinuousClock.now + .seconds(5)
        var count = try await AdminHTTPClient.metric(port: relay.ports.admin, series)
        while count == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            count = try await AdminHTTPClient.metric(port: relay.ports.admin, series)
        }
        return count
    }

    @Test("the answer names UDP and TCP candidates on IPv4 and on IPv6, each IPv6 one just below its IPv4 twin")
    func candidatesInTheAnswer() async throws {
        try await TestRelay.with(Self.relayOnIPv6) { relay in
            let (anchor, answer, transport) = try await ICETCPTests.publish(relay, room: "v6-0", certificate: try DTLSCertificate())
            let lines = Self.candidates(answer)
            let port = transport.port
            #expect(
                lines == [
                    "a=candidate:1 1 udp 2130706431 127.0.0.1 \(port) typ host",
                    "a=candidate:3 1 udp 2130706175 ::1 \(port) typ host",
                    "a=candidate:2 1 tcp 2124414975 127.0.0.1 \(port) typ host tcptype passive",
                    "a=candidate:4 1 tcp 2124414719 ::1 \(port) typ host tcptype passive",
                ], "\(lines)")
            await anchor.close()
        }
        // Without IPv6 nothing changes.
        try await TestRelay.with { relay in
            let (anchor, answer, _) = try await ICETCPTests.publish(relay, room: "v6-0", certificate: try DTLSCertificate())
            #expect(!Self.candidates(answer).contains { $0.contains("::") })
            await anchor.close()
        }
    }

    @Test("a publisher on IPv6 alone: its check maps its IPv6 address, DTLS and SRTP pass, an IPv4 viewer gets its media, SRTCP comes back over IPv6")
    func publishOverIPv6() async throws {
        try await TestRelay.with(Self.relayOnIPv6) { relay in
            let certificate = try DTLSCertificate()
            let (anchor, _, transport) = try await ICETCPTests.publish(relay, room: "v6-1", certificate: certificate)
            let viewer = try await TestSubscriber.start(relay, room: "v6-1", user: "viewer", publisher: "anchor", profile: .aeadAES128GCM)
            let socket = try UDPTestSocket(.ipv6)
            defer { socket.close() }
            #expect(socket.acceptOnly(fromPort: transport.port))

            // The answer maps the client's IPv6 address (XOR-MAPPED-ADDRESS, family 2).
            let ice = try #require(transport.ice)
            let check = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
                priority: 1, tieBreaker: 7, useCandidate: true)
            let response = await socket.exchange(check.request(), port: transport.port)
            var mapped = Self.loopback6
            mapped.port = socket.localPort
            #expect(response.map { check.readResponse($0) } == .success(mappedAddress: mapped), "\(String(describing: response))")

            let dtls = try ICEClient.dtls(certificate, for: transport)
            await socket.handshake(dtls, port: transport.port, within: .seconds(10)) { ICEClient.keys($0) != nil }
            let srtp = try #require(ICEClient.keys(dtls), "DTLS over IPv6: \(dtls.state)")
            _ = try await ForwardingHelpers.waitForSequence(anchor, from: 0, "the transport connects", [{ $0.transportStateChanged?.state == "connected" }])

            try await ICEClient.sendVideo(srtp, to: viewer, relay: relay) { _ = socket.send($0, port: transport.port) }

            // The relay's RTCP to the publisher leaves its transport's send batch on the IPv6 socket.
            var rtcp = 0
            let deadline = ContinuousClock.now + .seconds(5)
            while rtcp == 0, ContinuousClock.now < deadline {
                guard let datagram = await socket.receive(timeoutMs: 200) else { continue }
                if datagram.count >= 8, datagram[0] >> 6 == 2, (192...223).contains(datagram[1]) { rtcp += 1 }
            }
            #expect(rtcp > 0, "SRTCP from the relay over IPv6")

            let figures = try await Self.stats(anchor, transport: transport.transportId)
            #expect(figures?.remote == "[::1]:\(socket.localPort)" && figures?.remoteProtocol == "udp", "\(String(describing: figures))")
            // /metrics counts the path: the publisher on IPv6 UDP, the viewer on IPv4 UDP.
            #expect(try await Self.paths(relay, protocol: "udp", family: "ipv6") == 1)
            #expect(try await Self.paths(relay, protocol: "udp", family: "ipv4") >= 1)
            #expect(!(await anchor.events()).contains { $0.transportStateChanged?.state == "failed" })
            await viewer.client.close()
            await anchor.close()
        }
    }

    @Test("a publisher on ICE-TCP over IPv6: the check maps its IPv6 address and media flows on the connection")
    func publishOverIPv6TCP() async throws {
        try await TestRelay.with(Self.relayOnIPv6) { relay in
            let certificate = try DTLSCertificate()
            let (anchor, _, transport) = try await ICETCPTests.publish(relay, room: "v6-2", certificate: certificate)
            let viewer = try await TestSubscriber.start(relay, room: "v6-2", user: "viewer", publisher: "anchor", profile: .aeadAES128GCM)
            let socket = try TCPTestSocket(port: transport.port, .ipv6)
            defer { socket.close() }
            let result = try await ICETCPTests.check(socket, transport)
            var mapped = Self.loopback6
            mapped.port = socket.localPort
            #expect(result == .success(mappedAddress: mapped), "\(String(describing: result))")

            let dtls = try ICEClient.dtls(certificate, for: transport)
            await socket.handshake(dtls, within: .seconds(10)) { ICEClient.keys($0) != nil }
            let srtp = try #require(ICEClient.keys(dtls), "DTLS over IPv6 TCP: \(dtls.state)")
            // Media from before the relay applied the keys would be dropped (not connected).
            _ = try await ForwardingHelpers.waitForSequence(anchor, from: 0, "the transport connects", [{ $0.transportStateChanged?.state == "connected" }])
            try await ICEClient.sendVideo(srtp, to: viewer, relay: relay) { socket.send($0) }
            let figures = try await Self.stats(anchor, transport: transport.transportId)
            #expect(figures?.remote == "[::1]:\(socket.localPort)" && figures?.remoteProtocol == "tcp", "\(String(describing: figures))")
            #expect(try await Self.paths(relay, protocol: "tcp", family: "ipv6") == 1)
            await viewer.client.close()
            await anchor.close()
        }
    }

    @Test("media from an IPv6 address that never passed a check is dropped as from an unknown source")
    func strangerOnIPv6() async throws {
        try await TestRelay.with(Self.relayOnIPv6) { relay in
            let (anchor, _, transport) = try await ICETCPTests.publish(relay, room: "v6-3", certificate: try DTLSCertificate())
            let stranger = try UDPTestSocket(.ipv6)
            defer { stranger.close() }
            // An RTP header and a DTLS record, neither behind a check.
            #expect(stranger.send([0x80, 0x60, 0, 1, 0, 0, 0, 1, 0, 0, 0x10, 0x92] + [UInt8](repeating: 0, count: 100), port: transport.port))
            #expect(stranger.send([22, 0xFE, 0xFD] + [UInt8](repeating: 0, count: 30), port: transport.port))
            let counters = try await ICETCPTests.counters(relay) { $0.drops(.unexpectedSource) >= 2 }
            #expect(counters.drops(.unexpectedSource) >= 2, "\(counters)")
            #expect(await stranger.receive(timeoutMs: 200) == nil)
            await anchor.close()
        }
    }
}
