import Auth
import Foundation
import PKRelayClient
import Protocol
import SecureTransport
import Testing

/// WHIP ingest (RFC 9725) as a client that knows only the RFC sees it: the answers' statuses
/// and headers, the session's resource, and a room that sees an ordinary anchor. The offers are
/// SDP text; the media run is aiortc publishing over WHIP.
@Suite("WHIP ingest", .serialized, .timeLimit(.minutes(2)))
struct WHIPTests {
    static let certificate: DTLSCertificate = { try! DTLSCertificate() }()
    static func offer() -> String { WebRTCFailureTests.offer(ufrag: "whip", fingerprint: certificate.fingerprint.sdpValue) }

    static func post(_ relay: TestRelay, token: String?, contentType: String = "application/sdp", body: String = offer()) async throws -> AdminHTTPClient.Reply {
        try await AdminHTTPClient.send(port: relay.ports.control, method: "POST", path: "/whip", token: token, headers: ["Content-Type": contentType], body: body)
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
            _ = try await ForwardingHelpers.waitForSequence(viewer, from: mark, "the WHIP anchor joins and publishes", [
                { $0.userJoined?.userId == "obs" && $0.userJoined?.role == .anchor }, { $0.userPublishStream?.userId == "obs" },
            ])

            // Trickled candidates are taken (the relay is ICE-lite); an ICE restart is refused.
            let trickle = try await AdminHTTPClient.send(
                port: relay.ports.control, method: "PATCH", path: location, headers: ["Content-Type": "application/trickle-ice-sdpfrag"],
                body: "a=mid:0\r\na=candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host\r\n")
            #expect(trickle.status == 204)
            let restart = try await AdminHTTPClient.send(
                port: relay.ports.control, method: "PATCH", path: location, headers: ["Content-Type": "application/trickle-ice-sdpfrag", "If-Match": "*"],
                body: "a=ice-ufrag:new1\r\na=ice-pwd:\(String(repeating: "q", count: 24))\r\n")
            #expect(restart.status == 422 && restart.body.contains("ICE restart"))

            let left = await viewer.events().count
            let ended = try await AdminHTTPClient.send(port: relay.ports.control, method: "DELETE", path: location)
            #expect(ended.status == 200)
            _ = try await ForwardingHelpers.waitForSequence(viewer, from: left, "the WHIP anchor leaves", [{ $0.userLeave?.userId == "obs" }])
            #expect(try await AdminHTTPClient.send(port: relay.ports.control, method: "DELETE", path: location).status == 404)
            #expect(try await AdminHTTPClient.send(port: relay.ports.control, method: "PATCH", path: location, headers: [
                "Content-Type": "application/trickle-ice-sdpfrag",
            ], body: "a=mid:0\r\n").status == 404)
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

    @Test("aiortc publishing over WHIP is decoded by an aiortc viewer in the room", .enabled(if: WebRTCPeerProcess.isAvailable, "python3 with aiortc is not installed"))
    func mediaOverWHIP() async throws {
        try await RealClientInterop.WebRTCInteropTests.withDirectory { directory in
            try await TestRelay.with { relay in
                let publisher = try WebRTCPeerProcess.whip(
                    "whip-publisher", url: "http://127.0.0.1:\(relay.ports.control)/whip", token: TestRelay.token(room: "whip-3", user: "obs"),
                    arguments: ["--duration", "20"], directory: directory)
                defer { publisher.kill() }
                let viewer = try WebRTCPeerProcess("viewer", relay: relay, room: "whip-3", user: "viewer", arguments: [
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
