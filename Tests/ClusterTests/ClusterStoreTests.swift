import Cluster
import Deadline
import Logging
import PostgresNIO
import PostgresTestSupport
import Testing

/// The cluster store against a real PostgreSQL. Leases last a minute here, so none runs out by
/// itself during a test: a lease "running out" is scripted by moving its expiry into the past on
/// the database, which is the clock that judges leases.
@Suite(
    "Cluster store on PostgreSQL", .serialized, .timeLimit(.minutes(2)),
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

    @Test("leaving frees the node's rooms at once and leaves other nodes' rooms alone")
    func leavingFreesRooms() async throws {
        try await Self.withStores(2) { _, stores in
            let leaseA = try await stores[0].register(Self.node("a"))
            let leaseB = try await stores[1].register(Self.node("b"))
            let mine = try await stores[0].claim("pk-9", for: leaseA)
            let theirs = try await stores[1].claim("pk-10", for: leaseB)
            #expect(mine.node.id == "a" && theirs.node.id == "b")
            try await stores[0].leave(leaseA)
            #expect(try await stores[1].placement(of: "pk-9") == nil, "a's room is free at once, not after its lease")
            #expect(try await stores[1].placement(of: "pk-10") == theirs)
            #expect(try await stores[1].liveNodes().map(\.id) == ["b"])
            // Placed again, it goes to the node still there.
            #expect(try await stores[1].place("pk-9").node.id == "b")
        }
    }

    @Test("a registration that keeps finding its row gone gives up with an error instead of retrying for ever")
    func registrationIsBounded() async throws {
        try await Self.withStores(1) { server, stores in
            // Every insert into the node table is silently skipped: each attempt finds no live
            // row to report and no row of its own, as when the row's node leaves in between.
            try await server.execute("CREATE FUNCTION pkrelay_test_skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$")
            try await server.execute("CREATE TRIGGER pkrelay_test_skip BEFORE INSERT ON pkrelay_nodes FOR EACH ROW EXECUTE FUNCTION pkrelay_test_skip()")
            do {
                let lease = try await withTimeout(.seconds(20), "the registration to give up") { try await stores[0].register(Self.node("a")) }
                Issue.record("registered without a row: \(lease)")
            } catch let error as ClusterStoreError {
                #expect(error == .registrationContended(nodeId: "a"), "\(error)")
            }
        }
    }
}
