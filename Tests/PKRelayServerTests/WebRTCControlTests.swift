import Foundation
import ICE
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

#if canImport(Glibc)
    import Glibc
    import MediaPlane
    import PKRelayServer
#endif

/// The WebRTC control surface without a browser: transport creation, the errors an app
/// developer meets, and ICE checks answered on the transport's port over real UDP.
@Suite("WebRTC control and ICE", .timeLimit(.minutes(1)))
struct WebRTCControlTests {
    static func errorCode(_ body: () async throws -> Void) async -> (code: Int, message: String)? {
        do { try await body() } catch let error as ControlClientError {
            if case .relay(let relayError) = error { return (relayError.code.rawValue, relayError.message) }
            return nil
        } catch { return nil }
        return nil
    }

    @Test("createTransport kind webrtc: ICE credentials, DTLS fingerprint, the room shard's port; wrong uses are refused")
    func transportAndErrors() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "c1", user: "anchor")
            let created: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            let ice = try #require(created.ice)
            let dtls = try #require(created.dtls)
            #expect(created.kind == "webrtc" && created.srtp == nil && created.ip == "127.0.0.1")
            #expect(ICECredentials(ufrag: ice.usernameFragment, password: ice.password).isValid)
            #expect(dtls.role == "server" && dtls.fingerprint.algorithm == "sha-256")
            #expect(dtls.fingerprint.value.split(separator: ":").count == 32)
            let second: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            #expect(second.port == created.port, "a room's WebRTC transports share its shard's port")
            #expect(second.ice?.usernameFragment != ice.usernameFragment)

            let cases: [(String, () async throws -> Void, Int, String)] = [
                (
                    "unknown kind", { let _: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "quic")) }, -32602,
                    "kind"
                ),
                (
                    "srtpProfile on webrtc",
                    {
                        let _: CreateTransportResult = try await client.request(
                            "createTransport", CreateTransportParams(kind: "webrtc", srtpProfile: "AEAD_AES_128_GCM"))
                    }, -32602, "srtpProfile"
                ),
                (
                    "connectTransport on webrtc",
                    { try await client.call("connectTransport", ConnectTransportParams(transportId: created.transportId, srtpKey: nil)) }, 4004, "ICE and DTLS"
                ),
                (
                    "publish without an offer",
                    {
                        let _: PublishStreamResult = try await client.request(
                            "publishStream",
                            PublishStreamParams(
                                roomId: "c1", transportId: created.transportId,
                                tracks: [
                                    TrackDescription(kind: .video, ssrc: 1, payloadType: 96, codec: "VP8", clockRate: 90000)
                                ]))
                    }, -32602, "params.sdp"
                ),
                (
                    "a rid on an SRTP track",
                    {
                        let srtp: CreateTransportResult = try await client.request("createTransport", CreateTransportParams())
                        var track = TrackDescription(kind: .video, ssrc: 0, payloadType: 96, codec: "VP8", clockRate: 90000)
                        track.rid = "f"
                        let _: PublishStreamResult = try await client.request(
                            "publishStream", PublishStreamParams(roomId: "c1", transportId: srtp.transportId, tracks: [track]))
                    }, -32602, "rid"
                ),
                (
                    "garbage offer",
                    {
                        let _: PublishStreamResult = try await client.request(
                            "publishStream", PublishStreamParams(roomId: "c1", transportId: created.transportId, tracks: [], sdp: "hello"))
                    }, 4018, "SDP offer"
                ),
                (
                    "answer with nothing offered",
                    { try await client.call("answerTransportOffer", AnswerTransportOfferParams(transportId: created.transportId, revision: 1, sdp: "v=0")) },
                    4010, "no offer"
                ),
                (
                    "answer on an SRTP transport id",
                    { try await client.call("answerTransportOffer", AnswerTransportOfferParams(transportId: 999_999, revision: 1, sdp: "v=0")) }, 4003,
                    "not a WebRTC transport"
                ),
            ]
            for (name, call, code, text) in cases {
                let error = await Self.errorCode(call)
                #expect(error?.code == code, "\(name): \(String(describing: error))")
                #expect(error?.message.contains(text) == true, "\(name): '\(error?.message ?? "no error")' should mention \(text)")
            }
            // The connection still works after every refusal.
            let third: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            #expect(third.kind == "webrtc")
        }
    }

    @Test("ICE checks on the transport's port: success with the mapped address, 401 for a wrong password")
    func iceChecksOverUDP() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "c2", user: "anchor")
            let created: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            let ice = try #require(created.ice)
            let socket = try UDPTestSocket()
            defer { socket.close() }

            let check = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
                priority: 1_853_824_767, tieBreaker: 0x1234_5678_9ABC_DEF0, useCandidate: true)
            let response = try #require(await socket.exchange(check.request(), port: created.port), "no answer to a valid check")
            #expect(check.readResponse(response) == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: socket.localPort)))

            let wrong = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt",
                remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: String(repeating: "x", count: 24)),
                priority: 1, tieBreaker: 1, useCandidate: false)
            let refusal = try #require(await socket.exchange(wrong.request(), port: created.port), "no answer to a wrongly signed check")
            #expect(wrong.readResponse(refusal) == .errorResponse(.unauthorized))

            // A check for nobody's ufrag gets no answer at all.
            let stranger = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt",
                remoteCredentials: ICECredentials(ufrag: "nobodyhere", password: String(repeating: "y", count: 24)),
                priority: 1, tieBreaker: 1, useCandidate: false)
            #expect(await socket.exchange(stranger.request(), port: created.port, timeoutMs: 300) == nil)
            // The wrongly signed check and the stranger's, once the once-a-second report is out.
            let rejected = try await relay.waitForMetric("pkrelay_dropped_packets_total{reason=\"stun_rejected\"}") { $0 >= 2 }
            #expect(rejected >= 2, "refused checks are counted")
        }
    }
}

/// How a WebRTC transport ends when ICE or DTLS fails: the client hears why, and the room
/// sees the stream end with the matching reason.
@Suite("WebRTC failures", .timeLimit(.minutes(1)))
struct WebRTCFailureTests {
    /// A one-track (VP8) publish offer with the given ICE ufrag and certificate fingerprint.
    static func offer(ufrag: String, fingerprint: String) -> String {
        [
            "v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic:WMS *",
            "m=video 9 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 0.0.0.0", "a=mid:0", "a=sendonly", "a=msid:cam cam-video",
            "a=rtcp-mux", "a=rtpmap:96 VP8/90000", "a=rtcp-fb:96 nack pli", "a=ssrc:4242 cname:test",
            "a=ice-ufrag:\(ufrag)", "a=ice-pwd:\(String(repeating: "p", count: 24))", "a=fingerprint:\(fingerprint)", "a=setup:actpass", "",
        ].joined(separator: "\r\n")
    }

    /// An anchor publishing on a WebRTC transport with `offer`, and a viewer in the room.
    static func publish(
        _ relay: TestRelay, room: String, offer: (String) -> String
    ) async throws -> (anchor: ControlClient, viewer: ControlClient, transport: CreateTransportResult) {
        let viewer = try await relay.join(room: room, user: "viewer")
        let anchor = try await relay.join(room: room, user: "anchor")
        let transport: CreateTransportResult = try await anchor.request("createTransport", CreateTransportParams(kind: "webrtc"))
        let result: PublishStreamResult = try await anchor.request(
            "publishStream",
            PublishStreamParams(
                roomId: room, transportId: transport.transportId, tracks: [], sdp: offer(transport.ice!.usernameFragment)))
        #expect(result.mediaType == MediaType.video)
        #expect(result.sdp?.contains("a=ice-lite") == true && result.sdp?.contains("a=setup:passive") == true)
        return (anchor, viewer, transport)
    }

    @Test("no ICE check after the SDP exchange: 4017, and the stream ends with KeepLiveFailed")
    func iceNeverConnects() async throws {
        try await TestRelay.with({ $0.media.iceTimeoutMs = 1000 }) { relay in
            let (anchor, viewer, transport) = try await Self.publish(relay, room: "f1") { _ in
                Self.offer(ufrag: "clnt", fingerprint: "sha-256 " + Array(repeating: "AB", count: 32).joined(separator: ":"))
            }
            let failed = try await ForwardingHelpers.waitForSequence(
                anchor, from: 0, "onTransportStateChanged failed", [{ $0.transportStateChanged?.state == "failed" }])[0].transportStateChanged!
            #expect(failed.transportId == transport.transportId && failed.errorCode == 4017, "\(failed)")
            #expect(failed.reason?.contains("no ICE connectivity check") == true, "\(failed)")
            let ended = try await ForwardingHelpers.waitForSequence(viewer, from: 0, "anchor's stream ends", [{ $0.userUnpublishStream?.userId == "anchor" }])[
                0
            ].userUnpublishStream!
            #expect(ended.reason == .keepLiveFailed)
            // The transport is gone: using it again is refused, the connection stays usable.
            let error = await WebRTCControlTests.errorCode {
                try await anchor.call("answerTransportOffer", AnswerTransportOfferParams(transportId: transport.transportId, revision: 1, sdp: "v=0"))
            }
            #expect(error?.code == 4003)
        }
    }

    @Test("a DTLS client whose certificate does not match the SDP: 4016, and the stream ends with PublishFailed")
    func dtlsFingerprintMismatch() async throws {
        try await TestRelay.with { relay in
            let announced = try DTLSCertificate()
            let (anchor, viewer, transport) = try await Self.publish(relay, room: "f2") { _ in
                Self.offer(ufrag: "clnt", fingerprint: announced.fingerprint.sdpValue)
            }
            let ice = try #require(transport.ice)
            let socket = try UDPTestSocket()
            defer { socket.close() }
            let check = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
                priority: 1, tieBreaker: 7, useCandidate: true)
            let answer = try #require(await socket.exchange(check.request(), port: transport.port))
            guard case .success = check.readResponse(answer) else {
                Issue.record("ICE check failed: \(check.readResponse(answer))")
                return
            }

            // The handshake itself is sound; only the client's certificate is not the announced one.
            let relayFingerprint = try #require(DTLSFingerprint(sdpValue: "sha-256 \(transport.dtls!.fingerprint.value)"))
            let client = try DTLSEndpoint(context: DTLSContext(certificate: DTLSCertificate()), role: .client, expectedPeerFingerprints: [relayFingerprint])
            await socket.handshake(client, port: transport.port, within: .seconds(10)) { $0.state.isFinished }
            let failed = try await ForwardingHelpers.waitForSequence(
                anchor, from: 0, "onTransportStateChanged failed", [{ $0.transportStateChanged?.state == "failed" }])[0].transportStateChanged!
            #expect(failed.errorCode == 4016, "\(failed)")
            #expect(failed.reason?.contains("DTLS") == true, "\(failed)")
            let ended = try await ForwardingHelpers.waitForSequence(viewer, from: 0, "anchor's stream ends", [{ $0.userUnpublishStream?.userId == "anchor" }])[
                0
            ].userUnpublishStream!
            #expect(ended.reason == .publishFailed)
        }
    }
}
