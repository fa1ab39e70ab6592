import Foundation
import PKRelayClient
import PKRelayServer
import PostgresTestSupport
import Protocol
import SecureTransport
import Testing

/// Relays as cluster nodes on one private PostgreSQL: placement, join redirects, room ends
/// freeing placements, and a node that loses its lease. Leases last a minute here, so none runs
/// out by itself; losing one is scripted on the database, the clock that judges leases.
@Suite(
    "Relays in a cluster", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL is not installed: cluster relay tests skipped"))
struct ClusterRelayTests {
    static func node(_ id: String, on database: PostgresTestServer, renewSeconds: Int = 2) -> (inout RelayConfiguration) -> Void {
        { configuration in
            configuration.cluster.nodeId = id
            configuration.cluster.databaseURL = database.databaseURL
            configuration.cluster.leaseSeconds = 60
            configuration.cluster.renewSeconds = renewSeconds
        }
    }

    /// POSTs the placement route on `relay` until a node answers (nodes need a moment to register).
    static func placement(of roomId: String, asking relay: TestRelay) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            let reply = try await AdminHTTPClient.send(
                port: relay.ports.admin, method: "POST", path: "/admin/v1/rooms/\(roomId)/placement", token: AdminAPITests.adminToken(), body: nil)
            if reply.status == 200, let json = reply.json { return json }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: .seconds(15), what: "a placement (last \(reply.status) \(reply.body))") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Joins `room` on `relay`, expecting a refusal; the relay's error. A node still starting
    /// answers 4031 (try again shortly), which is retried.
    static func refusedJoin(_ relay: TestRelay, room: String, user: String) async throws -> RelayError? {
        try await refusedJoinAt(url: "ws://127.0.0.1:\(relay.ports.control)/rtc", room: room, user: user)
    }

    @Test("a join reaching the wrong node is redirected to the room's node; a room's end frees its placement")
    func joinsAreRedirected() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.node("a", on: database)) { relayA in
                try await TestRelay.with(Self.node("b", on: database)) { relayB in
                    // Wait until a node holds a lease; joins retry while a node is still starting (4031).
                    _ = try await Self.placement(of: "warm-up", asking: relayA)

                    // The room server asks where a PK room goes, and hands its node's URL to clients.
                    let placed = try await Self.placement(of: "pk-1", asking: relayA)
                    let nodeId = try #require(placed["nodeId"] as? String)
                    let (home, away) = nodeId == "a" ? (relayA, relayB) : (relayB, relayA)
                    #expect(placed["controlURL"] as? String == home.controlURL)
                    #expect((placed["epoch"] as? Int ?? 0) > 0)
                    #expect(try await Self.placement(of: "pk-1", asking: away)["nodeId"] as? String == nodeId, "every node gives the same answer")

                    // A client that reaches the other node is told where to go, by code and URL.
                    let redirect = try #require(try await Self.refusedJoin(away, room: "pk-1", user: "lost"))
                    #expect(redirect.code == .roomOnAnotherNode)
                    #expect(redirect.data?.controlURL == home.controlURL && redirect.data?.nodeId == nodeId, "\(redirect)")
                    #expect(redirect.message.contains(home.controlURL))
                    #expect(try await away.metric("pkrelay_cluster_redirects_total") >= 1)
                    let awayStats = try await AdminHTTPClient.send(
                        port: away.ports.admin, method: "GET", path: "/admin/v1/stats", token: AdminAPITests.adminToken(), body: nil)
                    let cluster = try #require(awayStats.json?["cluster"] as? [String: Any])
                    #expect(cluster["serving"] as? Bool == true && (cluster["leaseEpoch"] as? Int ?? 0) > 0, "\(cluster)")
                    let anchor = try await home.join(room: "pk-1", user: "anchor")
                    // PKRelayClient follows the redirect by itself.
                    let (follower, joined) = try await ControlClient.connectAndJoin(
                        to: away.controlURL, JoinRoomParams(token: TestRelay.token(room: "pk-1", user: "follower"), roomId: "pk-1", userId: "follower"))
                    #expect(joined.users.map(\.userId) == ["anchor"], "joined on the room's node, next to the anchor")
                    await follower.close()

                    // A room nobody placed is claimed by the node the first join reaches.
                    let solo = try await away.join(room: "solo", user: "host")
                    #expect(try await Self.placement(of: "solo", asking: home)["controlURL"] as? String == away.controlURL)
                    #expect(try await Self.refusedJoin(home, room: "solo", user: "guest")?.code == .roomOnAnotherNode)

                    // Forwarding reaches rooms on the same node (an unplaced target room is claimed
                    // here) and rooms on the other node, which are not created here as well.
                    let forward: ForwardStreamResult = try await anchor.request(
                        "startForwardStreamToRooms",
                        StartForwardParams(
                            roomId: "pk-1",
                            targets: [
                                ForwardTargetParams(roomId: "solo", token: TestRelay.token(room: "solo", user: "anchor")),
                                ForwardTargetParams(roomId: "stage", token: TestRelay.token(room: "stage", user: "anchor")),
                            ]))
                    let byRoom = Dictionary(uniqueKeysWithValues: forward.infos.map { ($0.roomId, $0) })
                    #expect(byRoom["solo"]?.state == ForwardState.success.rawValue, "\(forward)")
                    #expect(byRoom["stage"]?.state == ForwardState.success.rawValue, "\(forward)")
                    #expect(try await Self.placement(of: "stage", asking: away)["nodeId"] as? String == nodeId)
                    try await anchor.call("stopForwardStreamToRooms", RoomParams(roomId: "pk-1"))

                    // When the room ends its placement is released: the other node may take it now.
                    try await solo.call("leaveRoom", RoomParams(roomId: "solo"))
                    let deadline = ContinuousClock.now + .seconds(10)
                    var rejoined: ControlClient?
                    while rejoined == nil, ContinuousClock.now < deadline {
                        do {
                            rejoined = try await home.join(room: "solo", user: "host")
                        } catch ControlClientError.relay(let error) where error.code == .roomOnAnotherNode {
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                    #expect(rejoined != nil, "the ended room was never released")
                    await rejoined?.close()
                    await solo.close()
                    await anchor.close()
                }
            }
        }
    }

    @Test("a node that loses its lease dismisses its rooms, registers again and serves anew")
    func lostLeaseStopsServing() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.node("a", on: database, renewSeconds: 1)) { relay in
                _ = try await Self.placement(of: "warm-up", asking: relay)
                let host = try await relay.join(room: "show", user: "host")

                // The database says the lease ran out (as if the node had been cut off for a minute).
                try await database.execute("UPDATE pkrelay_nodes SET lease_expires_at = now() - interval '1 millisecond' WHERE node_id = 'a'")
                let exit = try await host.nextEvent(named: "onExitRoom", timeout: .seconds(10))
                guard case .exitRoom(let event)? = exit.event else {
                    Issue.record("not an exit: \(exit.text)")
                    return
                }
                #expect(event.roomId == "show")
                #expect(event.code == ErrorCode.roomDismissed.rawValue, "\(exit.text)")
                #expect(try await relay.metric("pkrelay_cluster_lease_losses_total") == 1)

                // It registers again under a new lease, and takes joins again.
                let deadline = ContinuousClock.now + .seconds(10)
                var back = false
                while !back, ContinuousClock.now < deadline {
                    do {
                        let _: JoinRoomResult = try await host.request(
                            "joinRoom", JoinRoomParams(token: TestRelay.token(room: "show", user: "host"), roomId: "show", userId: "host"))
                        back = true
                    } catch ControlClientError.relay(let error) where error.code == .clusterUnavailable {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                #expect(back)
                await host.close()
            }
        }
    }

    @Test("a database outage shorter than the lease leaves rooms and media alone")
    func briefDatabaseOutageKeepsServing() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with({ configuration in
                Self.node("a", on: database, renewSeconds: 1)(&configuration)
                configuration.cluster.leaseSeconds = 20
            }) { relay in
                _ = try await Self.placement(of: "warm-up", asking: relay)
                let publisher = try await TestPublisher.start(relay, room: "live", user: "anchor", profile: .aeadAES128GCM, videoSSRC: 4_100, audioSSRC: 4_200)
                let subscriber = try await TestSubscriber.start(relay, room: "live", user: "viewer", publisher: "anchor", profile: .aeadAES128GCM)

                // PostgreSQL goes away for about three renewal intervals (well under the 20 s lease)
                // while media flows at 20 frames a second.
                try await database.pause()
                let baseline = subscriber.receivedCount
                for index in 0..<60 {
                    try publisher.sendFrame(keyframe: index == 0)
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await subscriber.waitFor(videoPayload: publisher.sentVideo.last!.payload, audioPayload: publisher.sentAudio.last!.payload, after: baseline)
                // A room nobody serves yet needs the database to be placed: the join is answered
                // 4031 (try again) once the claim's bound has passed, instead of waiting on it.
                let early = try await relay.connect()
                do {
                    let _: JoinRoomResult = try await early.request(
                        "joinRoom", JoinRoomParams(token: TestRelay.token(room: "during-outage", user: "early"), roomId: "during-outage", userId: "early"),
                        timeout: .seconds(15))
                    Issue.record("a new room was placed while the database was stopped")
                } catch ControlClientError.relay(let error) {
                    #expect(error.code == .clusterUnavailable && error.message.contains("timed out"), "\(error)")
                }
                await early.close()
                // The room server's placement request is answered 503 (try again) within the same
                // bound, not held until the database is back.
                let asked = ContinuousClock.now
                let placement = try await AdminHTTPClient.send(
                    port: relay.ports.admin, method: "POST", path: "/admin/v1/rooms/during-outage/placement", token: AdminAPITests.adminToken(), body: nil)
                #expect(placement.status == 503, "\(placement.status) \(placement.body)")
                print("cluster: a placement during a database outage was answered \(placement.status) after \(ContinuousClock.now - asked)")
                try await database.resume()
                #expect(await subscriber.client.events().allSatisfy { $0.name != "onExitRoom" }, "nobody was sent out of the room")
                #expect(await publisher.client.events().allSatisfy { $0.name != "onExitRoom" })

                // Back on the restarted database, the node still holds its lease and takes new rooms.
                let late = try await relay.connect()
                let deadline = ContinuousClock.now + .seconds(15)
                var joined = false
                while !joined, ContinuousClock.now < deadline {
                    do {
                        let _: JoinRoomResult = try await late.request(
                            "joinRoom", JoinRoomParams(token: TestRelay.token(room: "after-outage", user: "late"), roomId: "after-outage", userId: "late"))
                        joined = true
                    } catch ControlClientError.relay(let error) where error.code == .clusterUnavailable {
                        try await Task.sleep(for: .milliseconds(200))
                    }
                }
                #expect(joined)
                #expect(try await relay.metric("pkrelay_cluster_renewal_failures_total") >= 1, "renewals failed during the outage")
                #expect(try await relay.metric("pkrelay_cluster_lease_losses_total") == 0)
                #expect(await subscriber.client.events().allSatisfy { $0.name != "onExitRoom" }, "the lease was kept through the outage")
                await late.close()
                await subscriber.client.close()
                await publisher.client.close()
            }
        }
    }

    /// Joins `room` as `user` at `url`, retrying while the node is still starting (4031).
    static func join(url: String, room: String, user: String) async throws -> ControlClient {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do {
                return try await ControlClient.connectAndJoin(
                    to: url, JoinRoomParams(token: TestRelay.token(room: room, user: user), roomId: room, userId: user)
                ).0
            } catch ControlClientError.relay(let error) where error.code == .clusterUnavailable && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Runs `body` with node a of the cluster as a real `pkrelay` process (so that it can be
    /// killed or stopped without a word), on a 3 s lease renewed every second, and its control
    /// URL; the process is woken and killed afterwards if still there. `edges` sets cluster.edges.
    static func withNodeProcess(
        on database: PostgresTestServer, leaseSeconds: Int = 3, host: String = "127.0.0.1", namespace: String? = nil, edges: Bool = false,
        _ body: (Process, String) async throws -> Void
    ) async throws {
        guard let executable = ShutdownSignalTests.executable else {
            Issue.record("pkrelay was not built beside the tests (swift build --build-tests builds it)")
            return
        }
        let range = TestRelay.nextPortRange()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkrelay-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = try await ShutdownSignalTests.startRelay(
            in: directory,
            config: """
                control: {host: \(host), port: 0}
                admin: {host: \(host), port: 0}
                media: {bindAddress: \(host), portRangeStart: \(range.lowerBound), portRangeEnd: \(range.upperBound), webrtcPort: 0}
                logging: {format: json}
                cluster: {nodeId: a, databaseURL: '\(database.databaseURL)', leaseSeconds: \(leaseSeconds), renewSeconds: 1, edges: \(edges)}
                """, executable: executable, environment: [:], namespace: namespace)
        guard let (process, _, controlPort) = started else { return }
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGCONT)
                kill(process.processIdentifier, SIGKILL)
            }
        }
        try await body(process, "ws://\(host):\(controlPort)/rtc")
    }

    /// Joins `room` on `relay` as soon as the room is no longer placed on another node (the
    /// node that held it lost its lease) and `relay` holds its own lease (on a busy machine its
    /// first one can come after the other node's); nil if that takes over 15 s.
    static func joinOnceMoved(_ relay: TestRelay, room: String, user: String) async throws -> ControlClient? {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            do {
                return try await relay.join(room: room, user: user)
            } catch ControlClientError.relay(let error) where error.code == .roomOnAnotherNode || error.code == .clusterUnavailable {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        return nil
    }

    @Test("a node hung with SIGSTOP loses its rooms to a live node; woken, it dismisses them and redirects joins there")
    func hungNodeDismissesItsRoomsWhenItWakes() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.node("b", on: database)) { relayB in
                try await Self.withNodeProcess(on: database) { process, urlA in
                    let host = try await Self.join(url: urlA, room: "frozen", user: "host")

                    kill(process.processIdentifier, SIGSTOP)
                    let stoppedAt = ContinuousClock.now
                    // A hung node renews nothing: once its lease has run out the room goes to b.
                    let moved = try await Self.joinOnceMoved(relayB, room: "frozen", user: "guest")
                    #expect(moved != nil, "the hung node's room never moved")
                    print("cluster: a hung node's room moved \(ContinuousClock.now - stoppedAt) after SIGSTOP (lease 3 s, renewed every 1 s)")

                    // Woken, a finds its lease over by its own clock before it serves anything: its
                    // user leaves the room it no longer owns, and a join there is sent to b at once,
                    // before a holds a lease again (not asked to try again).
                    kill(process.processIdentifier, SIGCONT)
                    let exit = try await host.nextEvent(named: "onExitRoom", timeout: .seconds(10))
                    guard case .exitRoom(let event)? = exit.event else {
                        Issue.record("not an exit: \(exit.text)")
                        return
                    }
                    #expect(event.roomId == "frozen" && event.code == ErrorCode.roomDismissed.rawValue, "\(exit.text)")
                    let late = try await ControlClient.connect(to: urlA, timeout: .seconds(10))
                    do {
                        let params = JoinRoomParams(token: TestRelay.token(room: "frozen", user: "late"), roomId: "frozen", userId: "late")
                        let _: JoinRoomResult = try await late.request("joinRoom", params)
                        Issue.record("a woken node served a room that moved")
                    } catch ControlClientError.relay(let error) {
                        #expect(error.code == .roomOnAnotherNode && error.data?.nodeId == "b", "\(error)")
                    }
                    await late.close()
                    let again = try await Self.join(url: urlA, room: "lobby-\(UUID().uuidString.prefix(4))", user: "probe")
                    await again.close()
                    let redirected = try await Self.refusedJoinAt(url: urlA, room: "frozen", user: "later")
                    #expect(redirected?.code == .roomOnAnotherNode && redirected?.data?.nodeId == "b", "\(String(describing: redirected))")
                    #expect(try await Self.placement(of: "frozen", asking: relayB)["nodeId"] as? String == "b")
                    await moved?.close()
                    await host.close()
                }
            }
        }
    }

    /// ``refusedJoin(_:room:user:)`` against a relay given by its control URL.
    static func refusedJoinAt(url: String, room: String, user: String) async throws -> RelayError? {
        let client = try await ControlClient.connect(to: url, timeout: .seconds(10))
        defer { Task { await client.close() } }
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                let _: JoinRoomResult = try await client.request(
                    "joinRoom", JoinRoomParams(token: TestRelay.token(room: room, user: user), roomId: room, userId: user))
                return nil
            } catch ControlClientError.relay(let error) where error.code == .clusterUnavailable && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            } catch ControlClientError.relay(let error) {
                return error
            }
        }
    }

    @Test("a node killed with SIGKILL: joins are sent to it until its lease runs out, then its rooms go to a live node")
    func killedNodesRoomsMoveWhenItsLeaseRunsOut() async throws {
        try await PostgresTestServer.with { database in
            try await TestRelay.with(Self.node("b", on: database)) { relayB in
                try await Self.withNodeProcess(on: database) { process, urlA in
                    let host = try await Self.join(url: urlA, room: "doomed", user: "host")

                    kill(process.processIdentifier, SIGKILL)
                    let killedAt = ContinuousClock.now
                    // Until a's lease runs out the cluster still places the room on a: b redirects there.
                    let early = try await Self.refusedJoin(relayB, room: "doomed", user: "guest")
                    #expect(early?.code == .roomOnAnotherNode && early?.data?.controlURL == urlA, "\(String(describing: early))")
                    try await host.waitUntilClosed(timeout: .seconds(10))

                    // Then the next join places the room on b, a live node.
                    let moved = try await Self.joinOnceMoved(relayB, room: "doomed", user: "host")
                    #expect(moved != nil, "the dead node's room never moved")
                    print("cluster: a killed node's room moved \(ContinuousClock.now - killedAt) after SIGKILL (lease 3 s, renewed every 1 s)")
                    #expect(try await Self.placement(of: "doomed", asking: relayB)["nodeId"] as? String == "b")
                    await moved?.close()
                }
            }
        }
    }
}
