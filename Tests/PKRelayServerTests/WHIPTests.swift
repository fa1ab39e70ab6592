import Auth
import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import SecureTransport
import Testing

/// WHIP ingest (RFC 9725) and WHEP playback as a client that knows only the RFC sees them: the
/// answers' statuses and headers, the session's resource, and a room that sees an ordinary
/// anchor or viewer. The offers are SDP text; the media runs are aiortc publishing over WHIP and
/// playing over WHEP.
@Suite("WHIP ingest and WHEP playback", .serialized, .timeLimit(.minutes(2)))
struct WHIPTests {
    static let certificate: DTLSCertificate = { try! DTLSCertificate() }()
    static func offer() -> String { WebRTCFailureTests.offer(ufrag: "whip", fingerprint: certificate.fingerprint.sdpValue) }

    static func post(_ relay: TestRelay, token: String?, contentType: String = "application/sdp", body: String = offer()) async throws -> AdminHTTPClient.Reply
    {
        try await AdminHTTPClient.send(
            port: relay.ports.control, method: "POST", path: "/whip", token: token, headers: ["Content-Type": contentType], body: body)
    }

    @Test("an offer with the room server's token publishes as that anchor; DELETE ends the session")
    func publishAndEnd() async throws {
        try await TestRelay.with { relay in
            let viewer = try await relay.join(room: "whip-1", user: "viewer")
            let mark = await viewer.events().count
            let reply = try await Self.post(relay, token: TestRelay.token(room: "whip-1", user: "obs"))
            #expect(reply.status == 201, "\(reply.status) \(reply.body)")
            #expect(reply.headers["content-type"]?.hasPrefix("application/sdp") == true)
            let location = try #require(reply.headers["location"])
            #expect(location.hasPrefix("/whip/") && location.count > 20, "an unguessable resource: \(location)")
            #expect(reply.body.contains("a=ice-lite") && reply.body.contains("a=setup:passive") && reply.body.contains("a=recvonly"))
            #expect(reply.headers["access-control-expose-headers"]?.contains("Location") == true)
            _ = try await ForwardingHelpers.waitForSequence(
                viewer, from: mark, "the WHIP anchor joins and publishes",
                [
                    { $0.userJoined?.userId == "obs" && $0.userJoined?.role == .anchor }, { $0.userPublishStream?.userId == "obs" },
                ])

            // Trickled candidates are taken (the relay is ICE-lite); new credentials restart ICE.
            let trickle = try await AdminHTTPClient.send(
                port: relay.ports.control, method: "PATCH", path: location, headers: ["Content-Type": "application/trickle-ice-sdpfrag"],
                body: "a=mid:0\r\na=candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host\r\n")
            #expect(trickle.status == 204)
            let restart = try await AdminHTTPClient.send(
                port: relay.ports.control, method: "PATCH", path: location, headers: ["Content-Type": "application/trickle-ice-sdpfrag", "If-Match": "*"],
                body: "a=ice-ufrag:new1\r\na=ice-pwd:\(String(repeating: "q", count: 24))\r\n")
            #expect(restart.status == 200, "\(restart.status) \(restart.body)")
            #expect(restart.headers["content-type"]?.hasPrefix("application/trickle-ice-sdpfrag") == true)
            let firstUfrag = reply.body.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=ice-ufrag:") }.map(String.init)
            let newUfrag = restart.body.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=ice-ufrag:") }.map(String.init)
            #expect(newUfrag != nil && newUfrag != firstUfrag, "the relay's side of the restart has new credentials: \(restart.body)")
            #expect(restart.body.contains("a=ice-pwd:") && restart.body.contains("a=candidate:") && restart.body.contains("a=end-of-candidates"))
            #expect(restart.headers["etag"].map { !$0.isEmpty } == true)
            let halfRestart = try await AdminHTTPClient.send(
                port: relay.ports.control, method: "PATCH", path: location, headers: ["Content-Type": "application/trickle-ice-sdpfrag", "If-Match": "*"],
                body: "a=ice-ufrag:new2\r\n")
            #expect(halfRestart.status == 400 && halfRestart.body.contains("ice-pwd"), "\(halfRestart.status) \(halfRestart.body)")

            let left = await viewer.events().count
            let ended = try await AdminHTTPClient.send(port: relay.ports.control, method: "DELETE", path: location)
            #expect(ended.status == 200)
            _ = try await ForwardingHelpers.waitForSequence(viewer, from: left, "the WHIP anchor leaves", [{ $0.userLeave?.userId == "obs" }])
            #expect(try await AdminHTTPClient.send(port: relay.ports.control, method: "DELETE", path: location).status == 404)
            #expect(
                try await AdminHTTPClient.send(
                    port: relay.ports.control, method: "PATCH", path: location,
                    headers: [
                        "Content-Type": "application/trickle-ice-sdpfrag"
                    ], body: "a=mid:0\r\n"
                ).status == 404)
        }
    }

    @Test("the relay's ICE servers come with the answer as Link headers, TURN credentials minted for the publisher")
    func iceServerLinks() async throws {
        let secret = "coturn-shared-secret"
        try await TestRelay.with({
            $0.iceServers = [
                ICEServerConfiguration(urls: ["turn:turn.example.com:3478?transport=udp", "turn:turn.example.com:3478?transport=tcp"], secret: secret),
                ICEServerConfiguration(urls: ["stun:stun.example.com:3478"]),
            ]
        }) { relay in
            let reply = try await Self.post(relay, token: TestRelay.token(room: "whip-links", user: "obs"))
            #expect(reply.status == 201, "\(reply.status) \(reply.body)")
            let links = try #require(reply.headers["link"]).components(separatedBy: ", <")
            #expect(links.count == 3, "\(links)")
            #expect(links[0].hasPrefix("<turn:turn.example.com:3478?transport=udp>; rel=\"ice-server\"; username=\""), "\(links[0])")
            #expect(links[0].contains("credential-type=\"password\""))
            #expect(links[2] == "stun:stun.example.com:3478>; rel=\"ice-server\"", "STUN without credentials: \(links[2])")
            // The credentials are what coturn computes for them from the shared secret.
            let username = try #require(links[0].components(separatedBy: "username=\"").last?.components(separatedBy: "\"").first)
            let credential = try #require(links[0].components(separatedBy: "credential=\"").last?.components(separatedBy: "\"").first)
            #expect(username.hasSuffix(":obs"))
            let expiry = try #require(Int64(username.components(separatedBy: ":")[0]))
            #expect(TURNRESTCredentials.mint(secret: secret, id: "obs", nowSeconds: expiry - 86400, validSeconds: 86400).credential == credential)
        }
    }

    @Test("refusals are the statuses RFC 9725 names, with a sentence, and leave nothing behind")
    func refusals() async throws {
        try await TestRelay.with { relay in
            #expect(try await Self.post(relay, token: nil).status == 401)
            #expect(try await Self.post(relay, token: "not-a-token").status == 401)
            let expired = TestRelay.token(room: "whip-2", user: "obs", expiresIn: -600)
            #expect(try await Self.post(relay, token: expired).status == 401)
            let roomless = TokenMinter(key: .development).mint(TokenClaims(sub: "obs", room: nil, exp: Int64(Date().timeIntervalSince1970) + 600))
            #expect(try await Self.post(relay, token: roomless).status == 403)
            let viewerOnly = TestRelay.token(room: "whip-2", user: "obs", grants: TokenGrantSet(publish: false))
            let noGrant = try await Self.post(relay, token: viewerOnly)
            #expect(noGrant.status == 403, "\(noGrant.status) \(noGrant.body)")
            let token = TestRelay.token(room: "whip-2", user: "obs")
            #expect(try await Self.post(relay, token: token, contentType: "application/json").status == 415)
            let garbage = try await Self.post(relay, token: token, body: "v=0\r\nnot sdp\r\n")
            #expect(garbage.status == 400 && !garbage.body.isEmpty)
            let options = try await AdminHTTPClient.send(port: relay.ports.control, method: "OPTIONS", path: "/whip")
            #expect(options.status == 204 && options.headers["accept-post"] == "application/sdp")
            // Nothing refused is left in the room or in the media plane.
            let stats = try await AdminHTTPClient.send(port: relay.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken())
            #expect((stats.json?["users"] as? Int) == 0 && (stats.json?["transports"] as? Int) == 0, "\(stats.body)")
        }
    }

    @Test(
        "aiortc playing over WHEP decodes an aiortc anchor publishing over WHIP; the session ends when the anchor leaves",
        .enabled(if: WebRTCPeerProcess.isAvailable, "python3 with aiortc is not installed"))
    func playOverWHEP() async throws {
        try await RealClientInterop.WebRTCInteropTests.withDirectory { directory in
            try await TestRelay.with { relay in
                let base = "http://127.0.0.1:\(relay.ports.control)"
                let publisher = try WebRTCPeerProcess.whip(
                    "whip-publisher", url: base + "/whip", token: TestRelay.token(room: "whep-1", user: "obs"), arguments: ["--duration", "20"],
                    directory: directory)
                defer { publisher.kill() }
                let room = try await relay.join(room: "whep-1", user: "watcher")
                _ = try await ForwardingHelpers.waitForSequence(
                    room, from: 0, "the anchor publishes", timeout: .seconds(15), [{ $0.userPublishStream?.userId == "obs" }])
                let player = try WebRTCPeerProcess(
                    "whep-player",
                    arguments: [
                        "--url", base + "/whep/obs", "--token", TestRelay.token(room: "whep-1", user: "player"), "--verbose", "whep",
                        "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "20",
                    ], directory: directory)
                let (status, summary) = try await player.finish(timeout: .seconds(60))
                #expect(status == 0, "player: \(summary); stderr:\n\(player.stderrTail)")
                #expect((summary["videoFrames"] as? Int ?? 0) >= 30 && (summary["audioFrames"] as? Int ?? 0) >= 20, "\(summary)")
                #expect((summary["location"] as? String)?.hasPrefix("/whep/session/") == true)
                print("WHEP: first video frame \(summary["firstVideoFrameMs"] ?? "-") ms after the POST")

                // A second player; the anchor's leave ends its session.
                let offer = try await Self.playerOffer()
                let reply = try await AdminHTTPClient.send(
                    port: relay.ports.control, method: "POST", path: "/whep/obs", token: TestRelay.token(room: "whep-1", user: "player2"),
                    headers: ["Content-Type": "application/sdp"], body: offer)
                #expect(reply.status == 201, "\(reply.status) \(reply.body)")
                let location = try #require(reply.headers["location"])
                publisher.kill()
                let deadline = ContinuousClock.now + .seconds(15)
                var after = 0
                while ContinuousClock.now < deadline {
                    after = try await AdminHTTPClient.send(port: relay.ports.control, method: "DELETE", path: location).status
                    if after == 404 { break }
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(after == 404, "the session ended with its publisher")
            }
        }
    }

    @Test("WHEP refusals: an unknown publisher, an unreadable offer, a player that takes none of the publisher's codecs")
    func whepRefusals() async throws {
        try await TestRelay.with { relay in
            let anchor = try await relay.join(room: "whep-2", user: "anchor")
            let transport: CreateTransportResult = try await anchor.request("createTransport", CreateTransportParams())
            let _: PublishStreamResult = try await anchor.request(
                "publishStream",
                PublishStreamParams(
                    roomId: "whep-2", transportId: transport.transportId,
                    tracks: [
                        TrackDescription(kind: .video, ssrc: 7, payloadType: 102, codec: "H264", clockRate: 90_000, parameters: "packetization-mode=1")
                    ]))
            let token = TestRelay.token(room: "whep-2", user: "player")
            let vp8Only = try await Self.playerOffer()
            func post(_ path: String, _ body: String) async throws -> AdminHTTPClient.Reply {
                try await AdminHTTPClient.send(
                    port: relay.ports.control, method: "POST", path: path, token: token, headers: ["Content-Type": "application/sdp"], body: body)
            }
            let unknown = try await post("/whep/nobody", vp8Only)
            #expect(unknown.status == 404, "\(unknown.status) \(unknown.body)")
            #expect(try await post("/whep/anchor", "v=0\r\nbad\r\n").status == 400)
            let codec = try await post("/whep/anchor", vp8Only)
            #expect(codec.status == 400 && codec.body.contains("H264"), "\(codec.status) \(codec.body)")
            let stats = try await AdminHTTPClient.send(port: relay.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken())
            #expect((stats.json?["users"] as? Int) == 1, "only the anchor is left: \(stats.body)")
        }
    }

    /// A player's offer (VP8 and Opus, receive only), made by the SDP of a browser-like client.
    static func playerOffer() async throws -> String {
        [
            "v=0", "o=- 7 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1", "a=msid-semantic:WMS *",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:0", "a=recvonly", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2",
            "a=ice-ufrag:play", "a=ice-pwd:\(String(repeating: "p", count: 24))", "a=fingerprint:\(certificate.fingerprint.sdpValue)", "a=setup:actpass",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97", "c=IN IP4 0.0.0.0", "a=mid:1", "a=recvonly", "a=rtcp-mux", "a=rtpmap:96 VP8/90000",
            "a=rtcp-fb:96 nack", "a=rtcp-fb:96 nack pli", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96",
            "a=ice-ufrag:play", "a=ice-pwd:\(String(repeating: "p", count: 24))", "a=fingerprint:\(certificate.fingerprint.sdpValue)", "a=setup:actpass", "",
        ].joined(separator: "\r\n")
    }

    @Test(
        "aiortc publishing over WHIP is decoded by an aiortc viewer in the room",
        .enabled(if: WebRTCPeerProcess.isAvailable, "python3 with aiortc is not installed"))
    func mediaOverWHIP() async throws {
        try await RealClientInterop.WebRTCInteropTests.withDirectory { directory in
            try await TestRelay.with { relay in
                let publisher = try WebRTCPeerProcess.whip(
                    "whip-publisher", url: "http://127.0.0.1:\(relay.ports.control)/whip", token: TestRelay.token(room: "whip-3", user: "obs"),
                    arguments: ["--duration", "20"], directory: directory)
                defer { publisher.kill() }
                let viewer = try WebRTCPeerProcess(
                    "viewer", relay: relay, room: "whip-3", user: "viewer",
                    arguments: [
                        "subscribe", "--publisher", "obs", "--min-video-frames", "30", "--min-audio-frames", "20", "--duration", "20",
                    ], directory: directory)
                let (status, summary) = try await viewer.finish(timeout: .seconds(60))
                #expect(status == 0, "viewer: \(summary); stderr:\n\(viewer.stderrTail)")
                #expect(WebRTCPeerProcess.frames(summary, "video", of: "obs") >= 30, "\(summary)")
                publisher.kill()
            }
        }
    }
}
