import ICE
import MediaPlane
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

@testable import PKRelayServer

/// ICE over TCP (RFC 6544, RFC 4571 framing) on the relay's WebRTC ports, against real TCP on
/// 127.0.0.1, a real DTLS handshake and real SRTP: a client whose network blocks UDP takes part
/// through one TCP connection.
@Suite("ICE-TCP: WebRTC over one TCP connection", .timeLimit(.minutes(1)))
struct ICETCPTests {
    static let clientPassword = String(repeating: "p", count: 24)

    /// An anchor that publishes on a WebRTC transport; the relay's answer and the transport.
    static func publish(
        _ relay: TestRelay, room: String, certificate: DTLSCertificate
    ) async throws -> (
        anchor: ControlClient, answer: String, transport: CreateTransportResult
    ) {
        let anchor = try await relay.join(room: room, user: "anchor")
        let transport: CreateTransportResult = try await anchor.request("createTransport", CreateTransportParams(kind: "webrtc"))
        let result: PublishStreamResult = try await anchor.request(
            "publishStream",
            PublishStreamParams(
                roomId: room, transportId: transport.transportId, tracks: [],
                sdp: WebRTCFailureTests.offer(ufrag: "clnt", fingerprint: certificate.fingerprint.sdpValue)))
        return (anchor, try #require(result.sdp), transport)
    }

    /// An ICE check over `socket` with the relay's credentials for `transport`.
    static func check(_ socket: TCPTestSocket, _ transport: CreateTransportResult, useCandidate: Bool = true) async throws -> ICECheckResult? {
        let ice = try #require(transport.ice)
        let check = ICEConnectivityCheck(
            transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
            priority: 1, tieBreaker: 7, useCandidate: useCandidate)
        return await socket.exchange(check.request(), timeoutMs: 2000).map { check.readResponse($0) }
    }

    /// The media plane's counters once `ready` holds of them (its report is published every
    /// few hundred milliseconds), or as they are after five seconds.
    static func counters(_ relay: TestRelay, until ready: (DataPlaneCounters) -> Bool) async throws -> DataPlaneCounters {
        let deadline = ContinuousClock.now + .seconds(5)
        var counters = relay.server.media.latestReport().counters
        while !ready(counters), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            counters = relay.server.media.latestReport().counters
        }
        return counters
    }

    @Test("a publisher reaches the relay only over TCP: passive candidate, check, DTLS, SRTP and the relay's RTCP on one connection")
    func publishOverTCP() async throws {
        try await TestRelay.with { relay in
            let certificate = try DTLSCertificate()
            let (anchor, answer, transport) = try await Self.publish(relay, room: "tcp-1", certificate: certificate)
            // Both candidates on the same port number, TCP below UDP.
            let candidates = answer.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }
            #expect(candidates.count == 2, "\(candidates)")
            let tcp = try #require(candidates.first { $0.contains(" tcp ") })
            #expect(tcp.hasSuffix("tcp 2124414975 127.0.0.1 \(transport.port) typ host tcptype passive"), "\(tcp)")
            let priorities = candidates.map { UInt32($0.split(separator: " ")[3])! }
            #expect(priorities[0] > priorities[1], "UDP first: \(candidates)")

            let viewer = try await TestSubscriber.start(relay, room: "tcp-1", user: "viewer", publisher: "anchor", profile: .aeadAES128GCM)
            let socket = try TCPTestSocket(port: transport.port)
            defer { socket.close() }
            let result = try await Self.check(socket, transport)
            #expect(result == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: socket.localPort)), "\(String(describing: result))")

            let dtls = try ICEClient.dtls(certificate, for: transport)
            await socket.handshake(dtls, within: .seconds(10)) { ICEClient.keys($0) != nil }
            let srtp = try #require(ICEClient.keys(dtls), "DTLS over TCP: \(dtls.state)")
            _ = try await ForwardingHelpers.waitForSequence(anchor, from: 0, "the transport connects", [{ $0.transportStateChanged?.state == "connected" }])

            // Media over the connection reaches a viewer on UDP.
            try await ICEClient.sendVideo(srtp, to: viewer, relay: relay) { socket.send($0) }

            // The relay's RTCP to the publisher (receiver reports, keyframe requests) comes back
            // framed on the same connection.
            var rtcp = 0
            let deadline = ContinuousClock.now + .seconds(5)
            while rtcp == 0, ContinuousClock.now < deadline {
                guard let frame = await socket.receive(timeoutMs: 200) else { continue }
                if frame.count >= 8, frame[0] >> 6 == 2, (192...223).contains(frame[1]) { rtcp += 1 }
            }
            #expect(rtcp > 0, "SRTCP from the relay over TCP")
            let counters = try await Self.counters(relay) { $0.streamConnectionsAccepted >= 1 }
            #expect(counters.streamConnectionsAccepted >= 1)
            // getStats names the client's TCP address, and says it is TCP.
            var figures: TransportStats?
            let statsDeadline = ContinuousClock.now + .seconds(5)
            repeat {
                let stats: GetStatsResult = try await anchor.request("getStats", GetStatsParams())
                figures = stats.transports.first { $0.transportId == transport.transportId }
                if figures?.remoteProtocol == nil { try await Task.sleep(for: .milliseconds(100)) }
            } while figures?.remoteProtocol == nil && ContinuousClock.now < statsDeadline
            #expect(figures?.remote == "127.0.0.1:\(socket.localPort)" && figures?.remoteProtocol == "tcp", "\(String(describing: figures))")
            let viewerStats: GetStatsResult = try await viewer.client.request("getStats", GetStatsParams())
            #expect(viewerStats.transports.first?.remoteProtocol == "udp", "\(viewerStats.transports)")
            #expect(!(await anchor.events()).contains { $0.transportStateChanged?.state == "failed" })
            await viewer.client.close()
            await anchor.close()
        }
    }

    @Test("a connection past the limit is closed at once; an overlong frame is passed over and the connection goes on; a check for nobody gets no answer")
    func limitsAndBadFrames() async throws {
        try await TestRelay.with({ $0.media.webRTCTCPConnections = 1 }) { relay in
            let (anchor, _, transport) = try await Self.publish(relay, room: "tcp-2", certificate: try DTLSCertificate())
            let first = try TCPTestSocket(port: transport.port)
            defer { first.close() }
            // The first is accepted before the second arrives.
            #expect(await first.receive(timeoutMs: 200) == nil && !first.closedByPeer)
            let second = try TCPTestSocket(port: transport.port)
            defer { second.close() }
            #expect(await second.waitForClose(timeoutMs: 5000), "the second connection is refused")

            // 4000 bytes framed: longer than any datagram the relay takes.
            #expect(first.write([0x0F, 0xA0] + [UInt8](repeating: 0x17, count: 4000)))
            let stranger = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: "nobody", password: Self.clientPassword),
                priority: 1, tieBreaker: 7, useCandidate: true)
            #expect(await first.exchange(stranger.request(), timeoutMs: 300) == nil)
            let result = try await Self.check(first, transport)
            #expect(result == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: first.localPort)), "\(String(describing: result))")
            #expect(!first.closedByPeer)

            let counters = try await Self.counters(relay) { $0.streamConnectionsRefused >= 1 && $0.drops(.oversized) >= 1 }
            #expect(counters.streamConnectionsAccepted == 1 && counters.streamConnectionsRefused == 1, "\(counters)")
            #expect(counters.drops(.oversized) >= 1 && counters.drops(.stunRejected) >= 1)
            await anchor.close()
        }
    }

    @Test("with media.webrtcTCP off the answer names the UDP candidate only and nothing listens on TCP")
    func turnedOff() async throws {
        try await TestRelay.with({ $0.media.webRTCTCP = false }) { relay in
            let (anchor, answer, transport) = try await Self.publish(relay, room: "tcp-3", certificate: try DTLSCertificate())
            let candidates = answer.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }
            #expect(candidates.count == 1 && candidates[0].contains(" udp "), "\(candidates)")
            #expect(throws: TCPTestSocket.SocketFailed.self) { try TCPTestSocket(port: transport.port) }
            await anchor.close()
        }
    }
}
