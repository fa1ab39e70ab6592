import Auth
import Foundation
import PKRelayClient
import PKRelayServer
import Protocol
import SecureTransport
import Testing

/// The admin API over real HTTP against a running relay: every endpoint, auth failures,
/// malformed bodies and the rate limit; every answer is checked against docs/openapi.yaml.
@Suite(.timeLimit(.minutes(2)))
struct AdminAPITests {
    static func adminToken(expiresIn seconds: Int64 = 3600, key: SigningKey = .development) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenMinter(key: key).mint(TokenClaims(sub: "room-server", room: nil, exp: now + seconds, iat: now, grants: TokenGrantSet(admin: true)))
    }

    /// Records answers for the OpenAPI check.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var observations: [AdminOpenAPICheck.Observation] = []
        let port: Int
        init(port: Int) { self.port = port }

        func call(
            _ method: String, _ path: String, template: String, token: String? = AdminAPITests.adminToken(), body: String? = nil
        ) async throws -> AdminHTTPClient.Reply {
            let reply = try await AdminHTTPClient.send(port: port, method: method, path: path, token: token, body: body)
            lock.withLock { observations.append(.init(path: template, method: method.lowercased(), status: reply.status, body: reply.body)) }
            return reply
        }

        func check() async throws {
            let problems = try await AdminOpenAPICheck.problems(lock.withLock { observations })
            #expect(problems.isEmpty, "answers that do not match docs/openapi.yaml:\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test func authorisationFailuresAreRefused() async throws {
        try await TestRelay.with { relay in
            let api = Recorder(port: relay.ports.admin)
            let missing = try await api.call("GET", "/admin/v1/rooms", template: "/admin/v1/rooms", token: nil)
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats", token: "not-a-jwt").status == 401)
            #expect(try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats", token: Self.adminToken(expiresIn: -3600)).status == 401)
            let otherKey = SigningKey(id: "dev", secret: Array("another-secret-of-at-least-32-bytes!!".utf8))
            #expect(try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats", token: Self.adminToken(key: otherKey)).status == 401)
            let roomToken = TestRelay.token(room: "r1", user: "alice")
            let forbidden = try await api.call("GET", "/admin/v1/rooms", template: "/admin/v1/rooms", token: roomToken)
            #expect(forbidden.status == 403)
            #expect((forbidden.json?["error"] as? [String: Any])?["code"] as? String == "forbidden")
            let kick = try await api.call(
                "POST", "/admin/v1/rooms/r1/kick", template: "/admin/v1/rooms/{roomId}/kick", token: roomToken, body: #"{"userIds":["alice"]}"#)
            #expect(kick.status == 403)
            try await api.check()
        }
    }

    @Test func everyEndpointAnswersAsDocumented() async throws {
        try await TestRelay.with { relay in
            let api = Recorder(port: relay.ports.admin)
            let alice = try await relay.join(room: "adm-a", user: "alice")
            let carol = try await relay.join(room: "adm-a", user: "carol")
            let bob = try await relay.join(room: "adm-b", user: "bob")
            defer {
                Task {
                    await alice.close()
                    await bob.close()
                    await carol.close()
                }
            }
            let _: ConnectOtherRoomEvent = try await alice.request("connectOtherRoom", ConnectOtherRoomParams(roomId: "adm-b", userId: "bob"))
            let _: ForwardStreamResult = try await alice.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: "adm-a", targets: [ForwardTargetParams(roomId: "adm-c", token: TestRelay.token(room: "adm-c", user: "alice"))]))

            let list = try await api.call("GET", "/admin/v1/rooms", template: "/admin/v1/rooms")
            #expect(list.status == 200)
            let rooms = (list.json?["rooms"] as? [[String: Any]]) ?? []
            #expect(rooms.compactMap { $0["roomId"] as? String } == ["adm-a", "adm-b", "adm-c"])
            let roomA = rooms.first { $0["roomId"] as? String == "adm-a" }
            #expect(roomA?["users"] as? Int == 2)
            #expect(roomA?["forwardsOut"] as? Int == 1)
            #expect(roomA?["links"] as? Int == 1)

            let detail = try await api.call("GET", "/admin/v1/rooms/adm-a", template: "/admin/v1/rooms/{roomId}")
            #expect(detail.status == 200)
            let users = (detail.json?["users"] as? [[String: Any]]) ?? []
            #expect(users.compactMap { $0["userId"] as? String }.contains("alice"))
            #expect(users.first { $0["userId"] as? String == "bob" }?["forwardedFrom"] as? String == "adm-b")
            #expect((detail.json?["forwards"] as? [[String: Any]])?.first?["targetRoomId"] as? String == "adm-c")
            #expect((detail.json?["links"] as? [[String: Any]])?.first?["peerUserId"] as? String == "bob")
            let target = try await api.call("GET", "/admin/v1/rooms/adm-c", template: "/admin/v1/rooms/{roomId}")
            #expect((target.json?["forwards"] as? [[String: Any]])?.first?["direction"] as? String == "in")

            let stats = try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats")
            #expect(stats.status == 200)
            #expect(stats.json?["links"] as? Int == 1)
            #expect(stats.json?["forwards"] as? Int == 1)
            #expect(stats.json?["connections"] as? Int == 3)

            // A single relay places every room on itself.
            let placement = try await api.call("POST", "/admin/v1/rooms/adm-z/placement", template: "/admin/v1/rooms/{roomId}/placement")
            #expect(placement.status == 200)
            #expect(placement.json?["controlURL"] as? String == relay.controlURL)
            #expect(placement.json?["nodeId"] as? String == "" && placement.json?["epoch"] as? Int == 0)
            #expect(try await api.call("POST", "/admin/v1/rooms/bad!id/placement", template: "/admin/v1/rooms/{roomId}/placement").status == 400)

            // Stop alice's forwards and links: she hears both ends; she stays in her room.
            let stop = try await api.call(
                "POST", "/admin/v1/rooms/adm-a/users/alice/stop-forwarding", template: "/admin/v1/rooms/{roomId}/users/{userId}/stop-forwarding")
            #expect(stop.status == 200)
            #expect(stop.json?["forwardsStopped"] as? Int == 1)
            #expect(stop.json?["linksEnded"] as? Int == 1)
            _ = try await alice.nextEvent(named: "onForwardStreamStateChanged", timeout: .seconds(5))  // the start (Success)
            let stopped = try await alice.nextEvent(named: "onForwardStreamStateChanged", timeout: .seconds(5))
            if case .forwardStreamStateChanged(let change)? = stopped.event { #expect(change.infos.first?.state == ForwardState.idle.rawValue) }
            let unlinked = try await bob.nextEvent(named: "onDisconnectOtherRoom", timeout: .seconds(5))
            if case .disconnectOtherRoom(let end)? = unlinked.event { #expect(end.reason == "kicked") }
            #expect(try await api.call("GET", "/admin/v1/rooms/adm-c", template: "/admin/v1/rooms/{roomId}").status == 404)
            let again = try await api.call(
                "POST", "/admin/v1/rooms/adm-a/users/nobody/stop-forwarding", template: "/admin/v1/rooms/{roomId}/users/{userId}/stop-forwarding")
            #expect(again.status == 404)

            // Kick carol; an unknown user is reported, not an error.
            let kick = try await api.call(
                "POST", "/admin/v1/rooms/adm-a/kick", template: "/admin/v1/rooms/{roomId}/kick", body: #"{"userIds":["carol","nobody"]}"#)
            #expect(kick.status == 200)
            #expect(kick.json?["kicked"] as? [String] == ["carol"])
            #expect(kick.json?["notFound"] as? [String] == ["nobody"])
            let exit = try await carol.nextEvent(named: "onExitRoom", timeout: .seconds(5))
            if case .exitRoom(let event)? = exit.event { #expect(event.reason == .kicked) } else { Issue.record("no onExitRoom for carol") }

            // Dismiss: everyone hears room-dismissed.
            let dismiss = try await api.call(
                "POST", "/admin/v1/rooms/adm-b/dismiss", template: "/admin/v1/rooms/{roomId}/dismiss", body: #"{"reason":"show over"}"#)
            #expect(dismiss.status == 200)
            #expect(dismiss.json?["usersRemoved"] as? Int == 1)
            let dismissed = try await bob.nextEvent(named: "onExitRoom", timeout: .seconds(5))
            if case .exitRoom(let event)? = dismissed.event { #expect(event.reason == .roomDismissed) } else { Issue.record("no onExitRoom for bob") }
            let empty = try await api.call("POST", "/admin/v1/rooms/adm-a/dismiss", template: "/admin/v1/rooms/{roomId}/dismiss")
            #expect(empty.status == 200)
            #expect(try await api.call("GET", "/admin/v1/rooms", template: "/admin/v1/rooms").json?["rooms"] as? [Any] != nil)

            // Missing rooms, bad ids and malformed bodies.
            #expect(try await api.call("GET", "/admin/v1/rooms/nowhere", template: "/admin/v1/rooms/{roomId}").status == 404)
            #expect(try await api.call("POST", "/admin/v1/rooms/nowhere/dismiss", template: "/admin/v1/rooms/{roomId}/dismiss").status == 404)
            #expect(
                try await api.call("POST", "/admin/v1/rooms/nowhere/kick", template: "/admin/v1/rooms/{roomId}/kick", body: #"{"userIds":["x"]}"#).status == 404
            )
            #expect(try await api.call("GET", "/admin/v1/rooms/bad!id", template: "/admin/v1/rooms/{roomId}").status == 400)
            let _ = try await relay.join(room: "adm-d", user: "dave")
            let malformed = [
                "{not json", "[1,2]", "{}", #"{"userIds":"dave"}"#, #"{"userIds":[]}"#, #"{"userIds":[42]}"#,
                #"{"userIds":["bad id"]}"#, #"{"userIds":["dave"],"extra":1}"#,
            ]
            for body in malformed {
                let reply = try await api.call("POST", "/admin/v1/rooms/adm-d/kick", template: "/admin/v1/rooms/{roomId}/kick", body: body)
                #expect(reply.status == 400, "kick with \(body)")
                #expect((reply.json?["error"] as? [String: Any])?["code"] as? String == "bad_request")
            }
            #expect(try await api.call("POST", "/admin/v1/rooms/adm-d/kick", template: "/admin/v1/rooms/{roomId}/kick").status == 400)
            for body in ["{oops", #"{"reason":5}"#, #"{"why":"x"}"#, #""text""#] {
                #expect(
                    try await api.call("POST", "/admin/v1/rooms/adm-d/dismiss", template: "/admin/v1/rooms/{roomId}/dismiss", body: body).status == 400,
                    "dismiss with \(body)")
            }
            let huge = #"{"reason":""# + String(repeating: "x", count: 70_000) + #""}"#
            #expect(try await api.call("POST", "/admin/v1/rooms/adm-d/dismiss", template: "/admin/v1/rooms/{roomId}/dismiss", body: huge).status == 413)
            #expect(try await api.call("GET", "/admin/v1/rooms/adm-d", template: "/admin/v1/rooms/{roomId}").status == 200)
            try await api.check()
        }
    }

    /// Stats count the transports, UDP ports, sources and sinks the relay holds, and every one of
    /// them is back to zero once the clients have gone: what a soak run checks at its end.
    @Test func statsCountWhatIsHeldAndZeroAfterClientsLeave() async throws {
        try await TestRelay.with { relay in
            let api = Recorder(port: relay.ports.admin)
            let publisher = try await TestPublisher.start(
                relay, room: "held-a", user: "alice", profile: .aeadAES128GCM, videoSSRC: 0x5EED_0001, audioSSRC: 0x5EED_0002)
            let subscriber = try await TestSubscriber.start(relay, room: "held-a", user: "bob", publisher: "alice", profile: .aeadAES128GCM)
            // The data plane's figures come from its once-a-second snapshot.
            let held = try await Self.waitForStats(api) { ($0["media"] as? [String: Any])?["sinks"] as? Int == 2 }
            #expect(held["transports"] as? Int == 2)
            #expect(held["udpPorts"] as? Int == 2)
            #expect(held["connections"] as? Int == 2)
            let media = held["media"] as? [String: Any]
            #expect(media?["transports"] as? Int == 2)
            #expect(media?["sources"] as? Int == 2)
            // The room's subscriber: its subscription's transport and the relay's estimate of it
            // (an SRTP subscriber: from receiver reports).
            let room = try #require(try await api.call("GET", "/admin/v1/rooms/held-a", template: "/admin/v1/rooms/{roomId}").json)
            let bob = (room["users"] as? [[String: Any]])?.first { $0["userId"] as? String == "bob" }
            let subscription = try #require((bob?["subscriptions"] as? [[String: Any]])?.first)
            #expect(subscription["transportId"] as? Int == subscriber.endpoint.transportId)
            let estimate = subscription["bandwidthEstimate"] as? [String: Any]
            #expect(estimate?["source"] as? String == "receiver_reports" && (estimate?["estimateBps"] as? Int ?? 0) > 0)

            await subscriber.client.close()
            subscriber.endpoint.close()
            await publisher.client.close()
            publisher.endpoint.close()
            let released = try await Self.waitForStats(api) { stats in
                let media = stats["media"] as? [String: Any] ?? [:]
                return ["transports", "sources", "sinks"].allSatisfy { media[$0] as? Int == 0 }
            }
            for key in ["rooms", "users", "streams", "subscriptions", "connections", "transports", "udpPorts"] {
                #expect(released[key] as? Int == 0, "\(key) still held: \(released)")
            }
            try await api.check()
        }
    }

    /// Polls `/admin/v1/stats` until `condition` holds (or five seconds pass) and returns the last answer.
    static func waitForStats(_ api: Recorder, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let stats = try #require(try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats").json)
            if condition(stats) || ContinuousClock.now > deadline { return stats }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func callsBeyondTheRateAreRefused() async throws {
        try await TestRelay.with({ $0.adminRequestsPerSecond = 1 }) { relay in
            let api = Recorder(port: relay.ports.admin)
            // Twelve calls at once against one call per second with a burst of two: the bucket
            // starts full, so two pass, and however slow the machine, the rest cannot all wait
            // for a refill.
            let replies = try await withThrowingTaskGroup(of: AdminHTTPClient.Reply.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? try await api.call("GET", "/admin/v1/stats", template: "/admin/v1/stats")
                            : try await api.call("GET", "/admin/v1/rooms", template: "/admin/v1/rooms")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = replies.map(\.status)
            #expect(statuses.filter { $0 == 200 }.count >= 2 && Set(statuses).isSubset(of: [200, 429]), "\(statuses)")
            let limited = replies.filter { $0.status == 429 }
            #expect(!limited.isEmpty, "the burst is refused beyond two: \(statuses)")
            #expect(limited.allSatisfy { $0.headers["retry-after"] == "1" })
            // Health and metrics are not limited.
            #expect(try await AdminHTTPClient.text(port: relay.ports.admin, path: "/healthz") == "ok\n")
            try await api.check()
        }
    }
}
