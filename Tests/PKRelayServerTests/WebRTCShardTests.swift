import ICE
import MediaPlane
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

@testable import PKRelayServer

/// WebRTC transports on every data-plane shard, over real UDP: each shard reads a WebRTC port
/// of its own (`media.webrtcPort` + its index), a transport lives on its room's shard from
/// creation, and its port is the one in createTransport's result and in the relay's SDP; ICE
/// checks are routed and DTLS is answered on that port only.
@Suite("WebRTC transports on every shard", .timeLimit(.minutes(1)))
struct WebRTCShardTests {
    /// An anchor in `room` publishing on a WebRTC transport; its transport and the relay's answer.
    static func publish(
        _ relay: TestRelay, room: String, fingerprint: String
    ) async throws -> (anchor: ControlClient, transport: CreateTransportResult, answer: String) {
        let anchor = try await relay.join(room: room, user: "anchor")
        let transport: CreateTransportResult = try await anchor.request("createTransport", CreateTransportParams(kind: "webrtc"))
        let result: PublishStreamResult = try await anchor.request(
            "publishStream",
            PublishStreamParams(
                roomId: room, transportId: transport.transportId, tracks: [], sdp: WebRTCFailureTests.offer(ufrag: "clnt", fingerprint: fingerprint)))
        return (anchor, transport, try #require(result.sdp))
    }

    /// A check from `socket` to `port` naming `transport`'s credentials; nil when nobody answers.
    static func check(_ socket: UDPTestSocket, port: Int, _ transport: CreateTransportResult) async throws -> ICECheckResult? {
        let ice = try #require(transport.ice)
        let check = ICEConnectivityCheck(
            transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
            priority: 1, tieBreaker: 7, useCandidate: true)
        return await socket.exchange(check.request(), port: port, timeoutMs: 500).map { check.readResponse($0) }
    }

    @Test("two rooms' WebRTC transports on two shards: each on its shard's port, in the SDP, with ICE and DTLS there")
    func roomsOnTwoShards() async throws {
        try await TestRelay.with({ $0.media.threads = 2 }) { relay in
            let media = relay.server.media
            let ports = media.webRTCPorts
            #expect(ports.count == 2 && Set(ports).count == 2, "one WebRTC port per shard: \(ports)")
            let certificate = try DTLSCertificate()
            let fingerprint = certificate.fingerprint.sdpValue
            let (anchorA, a, answerA) = try await Self.publish(relay, room: "shard-a", fingerprint: fingerprint)
            let (anchorB, b, answerB) = try await Self.publish(relay, room: "shard-b", fingerprint: fingerprint)
            let shardA = try #require(media.shard(ofTransport: a.transportId))
            let shardB = try #require(media.shard(ofTransport: b.transportId))
            #expect(shardA != shardB, "the second room went to the other shard")
            #expect(a.port == ports[shardA] && b.port == ports[shardB])
            #expect(answerA.contains("127.0.0.1 \(a.port) typ host") && answerB.contains("127.0.0.1 \(b.port) typ host"), "the SDP names the shard's port")

            // A viewer's transport opened before its join, for room b: b's shard and port, and
            // the join keeps it there.
            let viewer = try await relay.connect()
            let early: CreateTransportResult = try await viewer.request("createTransport", CreateTransportParams(kind: "webrtc", roomId: "shard-b"))
            #expect(media.shard(ofTransport: early.transportId) == shardB && early.port == b.port)
            let _: JoinRoomResult = try await viewer.request(
                "joinRoom",
                JoinRoomParams(
                    token: TestRelay.token(room: "shard-b", user: "viewer"), roomId: "shard-b", userId: "viewer", role: .audience, visible: false,
                    roomConfig: RoomConfig(subscribeTransportId: early.transportId)))
            #expect(media.shard(ofTransport: early.transportId) == shardB)

            // Checks are routed by ufrag among the transports of the port's shard only.
            let socket = try UDPTestSocket()
            defer { socket.close() }
            #expect(try await Self.check(socket, port: b.port, a) == nil, "a's ufrag is unknown on b's shard")
            #expect(try await Self.check(socket, port: a.port, b) == nil, "b's ufrag is unknown on a's shard")
            #expect(try await Self.check(socket, port: a.port, a) == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: socket.localPort)))

            // b's DTLS handshake over b's port: its records come back from that port (the
            // socket reads nothing else) and the transport connects.
            let client = try UDPTestSocket()
            defer { client.close() }
            #expect(client.acceptOnly(fromPort: b.port))
            #expect(try await Self.check(client, port: b.port, b) == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: client.localPort)))
            let relayFingerprint = try #require(DTLSFingerprint(sdpValue: "sha-256 \(b.dtls!.fingerprint.value)"))
            let dtls = try DTLSEndpoint(context: DTLSContext(certificate: certificate), role: .client, expectedPeerFingerprints: [relayFingerprint])
            func connected() -> Bool {
                if case .connected = dtls.state { return true }
                return false
            }
            await client.handshake(dtls, port: b.port, within: .seconds(10)) { _ in connected() }
            #expect(connected(), "the DTLS handshake completed over b's shard's port")
            _ = try await ForwardingHelpers.waitForSequence(anchorB, from: 0, "b's transport connects", [{ $0.transportStateChanged?.state == "connected" }])
            #expect(!(await anchorA.events()).contains { $0.transportStateChanged?.state == "connected" }, "a's transport saw nothing")
            await viewer.close()
            await anchorA.close()
            await anchorB.close()
        }
    }
}
