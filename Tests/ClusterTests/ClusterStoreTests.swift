import Cluster
import Logging
import PostgresNIO
import PostgresTestSupport
import Testing

/// The cluster store against a real PostgreSQL. Leases last a minute here, so none runs out by
/// itself during a test: a lease "running out" is scripted by moving its expiry into the past on
/// the database, which is the clock that judges leases.
@Suite("Cluster store on PostgreSQL", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: PostgresTestServer.isAvailable, "PostgreSQL is not installed: cluster store tests skipped"))
struct ClusterStoreTests {
    static let leaseMs: Int64 = 60_000

    static func node(_ id: String, capacity: Int = 100) -> ClusterNode {
        ClusterNode(id: id, controlURL: "ws://\(id).example:7700/rtc", mediaAddress: "\(id).example:40000", capacity: capacity)
    }

    /// Runs `body` with `count` stores (one per node process in a real cluster) on one fresh database.
    static func withStores<T: Sendable>(_ count: Int, _ body: (PostgresTestServer, [ClusterStore]) async throws -> T) async throws -> T {
        try await PostgresTestServer.with { server in
            var logger = Logger(label: "pkrelay.test.cluster")
            logger.logLevel = .warning
            let stores = (0..<count).map { _ in ClusterStore(configuration: server.configuration, leaseDurationMs: leaseMs, logger: logger) }
            let runners = stores.map { store in Task { await store.run() } }
            defer { runners.forEach { $0.cancel() } }
            // Every node migrates as it starts, all at once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores { group.addTask { try await store.migrate() } }
                try await group.waitForAll()
            }
            return try await body(server, stores)
        }
    }

    static func expireLease(of nodeId: String, on server: PostgresTestServer) async throws {
        try await server.execute("UPDATE pkrelay_nodes SET lease_expires_at = now() - interval '1 millisecond' WHERE node_id = '\(nodeId)'")
    }

    @Test("a node id serves under one lease at a time; a lost lease cannot be renewed")
    func leasesAreExclusive() async throws {
        try await Self.withStores(2) { server, stores in
            let first = try await stores[0].register(Self.node("a"))
            #expect(first.nodeId == "a")
            let now = try await stores[0].databaseNowMs()
            #expect(first.expiresAtMs > now && first.expiresAtMs <= now + Self.leaseMs + 1000)

            // A second process with the same id is refused while the lease is live.
            do {
                _ = try await stores[1].register(Self.node("a"))
                Issue.record("a second lease was granted for node a")
            } catch let error as ClusterStoreError {
                guard case .nodeIdInUse(let nodeId, let untilMs) = error else { throw error }
                #expect(nodeId == "a" && untilMs == first.expiresAtMs)
            }

            let renewed = try await stores[0].renew(first, load: 3)
            #expect(renewed.epoch == first.epoch && renewed.expiresAtMs >= first.expiresAtMs)
            #expect(try await stores[0].liveNodes().map(\.load) == [3])

            // Once the lease ran out, the id can be registered again, under a newer epoch, and
            // the old lease is gone for good.
            try await Self.expireLease(of: "a", on: server)
            #expect(try await stores[0].liveNodes().isEmpty)
            let second = try await stores[1].register(Self.node("a"))
            #expect(second.epoch > first.epoch)
            await #expect(throws: ClusterStoreError.leaseLost(nodeId: "a")) { _ = try await stores[0].renew(first, load: 0) }
            _ = try await stores[1].renew(second, load: 0)
        }
    }

    @Test("rooms go to the live node with the fewest rooms for its capacity, once")
    func placementSpreadsAndSticks() async throws {
        try await Self.withStores(1) { _, stores in
            let store = stores[0]
            await #expect(throws: ClusterStoreError.noLiveNode) { _ = try await store.place("lonely") }
            _ = try await store.register(Self.node("a", capacity: 100))
            _ = try await store.register(Self.node("b", capacity: 100))
            _ = try await store.register(Self.node("c", capacity: 200))
            var counts: [String: Int] = [:]
            for index in 0..<40 {
                let placed = try await store.place("room-\(index)")
                counts[placed.node.id, default: 0] += 1
            }
            // c holds twice the capacity, so twice the rooms.
            #expect(counts == ["a": 10, "b": 10, "c": 20])
            let again = try await store.place("room-7")
            #expect(again == (try await store.placement(of: "room-7")))
            #expect(try await store.placement(of: "never-placed") == nil)
            await #expect(throws: ClusterStoreError.self) { _ = try await store.place("bad room/../x") }
        }
    }

    @Test("a room of a node whose lease ran out moves to a live node under a newer epoch; the old epoch is refused")
    func deadNodesRoomsMove() async throws {
        try await Self.withStores(2) { server, stores in
            let leaseA = try await stores[0].register(Self.node("a"))
            let first = try await stores[0].claim("pk-1", for: leaseA)
            #expect(first.node.id == "a")
            #expect(try await stores[0].rooms(of: leaseA) == ["pk-1": first.epoch])
            let leaseB = try await stores[1].register(Self.node("b"))

            // b cannot take a room a serves: it gets a's placement back, to redirect to.
            let refused = try await stores[1].claim("pk-1", for: leaseB)
            #expect(refused == first)

            try await Self.expireLease(of: "a", on: server)
            #expect(try await stores[1].placement(of: "pk-1") == nil, "a room on a dead node is not placed")
            let moved = try await stores[1].place("pk-1")
            #expect(moved.node.id == "b" && moved.epoch > first.epoch)
            // The old owner's late release does not remove the new placement.
            #expect(try await stores[0].release("pk-1", epoch: first.epoch) == false)
            #expect(try await stores[1].placement(of: "pk-1") == moved)
            // And a's lease is gone, so a cannot claim anything.
            await #expect(throws: ClusterStoreError.leaseLost(nodeId: "a")) { _ = try await stores[0].claim("pk-2", for: leaseA) }

            #expect(try await stores[1].release("pk-1", epoch: moved.epoch))
            #expect(try await stores[1].placement(of: "pk-1") == nil)
        }
    }

    @Test("many nodes placing and claiming one room at once agree on one placement")
    func concurrentPlacementAgrees() async throws {
        try await Self.withStores(3) { _, stores in
            var leases: [NodeLease] = []
            for (index, store) in stores.enumerated() { leases.append(try await store.register(Self.node("n\(index)"))) }
            let leasesSnapshot = leases
            for round in 0..<5 {
                let room = "contested-\(round)"
                let answers = try await withThrowingTaskGroup(of: RoomPlacement.self) { group in
                    for attempt in 0..<12 {
                        let store = stores[attempt % stores.count]
                        let lease = leasesSnapshot[attempt % stores.count]
                        group.addTask { attempt % 2 == 0 ? try await store.place(room) : try await store.claim(room, for: lease) }
                    }
                    var answers: [RoomPlacement] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(Set(answers).count == 1, "\(room): \(Set(answers))")
            }
        }
    }

    @Test("notices tell of placements, releases and nodes leaving; leaving frees its rooms at once")
    func noticesAndLeaving() async throws {
        try await Self.withStores(2) { _, stores in
            let heard = NoticeLog()
            let listener = Task { try await stores[1].listen { notice in heard.append(notice) } }
            defer { listener.cancel() }
            let lease = try await stores[0].register(Self.node("a"))
            // The listener is subscribed once it hears anything: place warm-up rooms until it does.
            for warmup in 0..<500 where heard.all.isEmpty {
                let placed = try await stores[0].claim("warm-\(warmup)", for: lease)
                try await stores[0].release(placed.roomId, epoch: placed.epoch)
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(!heard.all.isEmpty, "the listener heard no notice in 10 s")

            let placed = try await stores[0].claim("pk-9", for: lease)
            try await stores[0].release("pk-9", epoch: placed.epoch)
            let again = try await stores[0].claim("pk-10", for: lease)
            try await stores[0].leave(lease)
            #expect(try await stores[1].placement(of: "pk-10") == nil)
            #expect(try await stores[1].liveNodes().isEmpty)

            let expected: [ClusterNotice] = [
                .roomPlaced(roomId: "pk-9", nodeId: "a", epoch: placed.epoch), .roomReleased(roomId: "pk-9", epoch: placed.epoch),
                .roomPlaced(roomId: "pk-10", nodeId: "a", epoch: again.epoch), .nodeLeft(nodeId: "a"),
            ]
            let current = { heard.all.filter { !Self.isWarmUp($0) } }
            try await Self.waitUntil("the notices") { current().count >= expected.count }
            #expect(current() == expected)
        }
    }

    static func isWarmUp(_ notice: ClusterNotice) -> Bool {
        switch notice {
        case .roomPlaced(let roomId, _, _), .roomReleased(let roomId, _): roomId.hasPrefix("warm-")
        case .nodeLeft: false
        }
    }

    /// Polls `condition` (which may act, too) every 20 ms until it holds; fails after 10 s.
    static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
