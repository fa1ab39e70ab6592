import Cluster
import Deadline
import Foundation
import Logging
import MediaPlane
import Synchronization
import Testing

@testable import PKRelayServer

/// A node's directory (``ClusterMembership``) on a scripted database: room ends racing joins,
/// requests bounded while the database does not answer, and a node without a lease.
@Suite struct ClusterMembershipTests {
    final class Clock: Sendable {
        let milliseconds = Mutex<Int64>(0)
        var now: Int64 { milliseconds.withLock { $0 } }
        func advance(seconds: Int64) { milliseconds.withLock { $0 += seconds * 1000 } }
    }

    static func node(_ id: String) -> ClusterNode {
        ClusterNode(id: id, controlURL: "ws://\(id).test:7700/rtc", mediaAddress: "127.0.0.1:40000", capacity: 100)
    }

    /// Node `id`'s membership, holding a fresh lease on `store`, with its releases running.
    static func member(_ id: String, on store: ScriptedPlacementStore, clock: Clock = Clock()) -> (ClusterMembership, Task<Void, Never>) {
        var configuration = ClusterConfiguration()
        configuration.nodeId = id
        configuration.leaseSeconds = 10
        configuration.renewSeconds = 2
        var logger = Logger(label: "pkrelay.test.membership")
        logger.logLevel = .critical
        let membership = ClusterMembership(
            configuration: configuration, store: store, logger: logger, databaseTimeout: .milliseconds(300), monotonicMs: { clock.now })
        membership.granted(store.register(node(id)), sentAtMs: clock.now)
        return (membership, Task { await membership.releaseEndedRooms() })
    }

    /// Routes a join for `roomId` until it is served here (a release still finishing is
    /// answered "try again"); the last answer after 5 s.
    static func joinOnceReleased(_ membership: ClusterMembership, _ roomId: String) async throws -> ClusterRoute {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let route = await membership.route(roomId: roomId)
            guard case .unavailable = route, ContinuousClock.now < deadline else { return route }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits (bounded) until the store has seen `count` releases.
    static func releases(_ count: Int, on store: ScriptedPlacementStore) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while store.releases.count < count {
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: .seconds(5), what: "\(count) releases") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("a room that ends and is joined again at once: the late release cannot take away the placement the node serves again")
    func rejoinDuringRelease() async throws {
        let store = ScriptedPlacementStore()
        let (membership, releases) = Self.member("a", on: store)
        defer { releases.cancel() }
        #expect(await membership.route(roomId: "pk") == .local)
        let first = try #require(membership.epoch(of: "pk"))

        // The room ends; its release is slow to reach the database. A join for it comes at once.
        store.releasing.close()
        membership.roomEnded(roomId: "pk")
        let early = await membership.route(roomId: "pk")
        // The release goes through, later than the join.
        store.releasing.open()
        try await Self.releases(1, on: store)
        if early != .local {
            // Asked to try again (4031) while the release was on its way; now the join goes.
            guard case .unavailable = early else {
                Issue.record("\(early)")
                return
            }
            #expect(try await Self.joinOnceReleased(membership, "pk") == .local)
        }
        // What the node serves is what the database says: not the placement the release removed.
        let served = try #require(membership.epoch(of: "pk"))
        let placed = try await store.placement(of: "pk")
        #expect(placed?.node.id == "a" && placed?.epoch == served, "serves epoch \(served), the database holds \(String(describing: placed))")
        #expect(served != first)
        // Only the ended placement was released (a slow first attempt is tried again, and that
        // finds nothing left to remove).
        #expect(store.releases.first?.removed == true && store.releases.allSatisfy { $0.epoch == first }, "\(store.releases)")
    }

    @Test("a placement asked while a room's release is under way never answers the placement being released")
    func placementDuringRelease() async throws {
        let store = ScriptedPlacementStore()
        let (membership, releases) = Self.member("a", on: store)
        defer { releases.cancel() }
        #expect(await membership.route(roomId: "pk") == .local)
        let first = try #require(membership.epoch(of: "pk"))
        store.releasing.close()
        membership.roomEnded(roomId: "pk")
        var answered: RoomPlacement?
        do {
            answered = try await membership.place(roomId: "pk")
        } catch {
            // Asked to try again while the release waits: a 503 for the room server.
        }
        #expect(answered?.epoch != first, "the placement being released was handed out")
        store.releasing.open()
        try await Self.releases(1, on: store)
        _ = try await Self.joinOnceReleased(membership, "pk")
        let placed = try await membership.place(roomId: "pk")
        let stored = try await store.placement(of: "pk")
        #expect(placed.epoch != first && placed == stored)
    }

    @Test("a placement waits for the database at most its bound, then fails (a 503 for the room server)")
    func placementIsBounded() async throws {
        let store = ScriptedPlacementStore()
        let (membership, releases) = Self.member("a", on: store)
        defer { releases.cancel() }
        store.answering.close()
        defer { store.answering.open() }
        let outcome = try await withTimeout(.seconds(5), "the placement to give up") { () -> String in
            do {
                let placement = try await membership.place(roomId: "pk")
                return "placed \(placement)"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome.contains("timed out"), "\(outcome)")

        // Through the admin API's route: 503, as openapi.yaml lists it.
        let media = RecordingMediaCommands()
        let core = RelayCore(
            configuration: RelayConfiguration(), media: media, logger: Logger(label: "pkrelay.test"), nowMs: { CoreHarness.startMs },
            directory: membership, peers: nil, dtlsContext: CoreHarness.dtls)
        let answer = try await withTimeout(.seconds(5), "the admin placement to answer") { await core.adminPlacement("pk", controlURL: "") }
        #expect(answer.status == 503, "\(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test("a node without a lease sends a join for a room that moved to the room's node (4030), and asks to try again otherwise")
    func withoutALeaseJoinsAreRedirected() async throws {
        let store = ScriptedPlacementStore()
        let clock = Clock()
        let (a, releasesA) = Self.member("a", on: store, clock: clock)
        let (b, releasesB) = Self.member("b", on: store)
        defer {
            releasesA.cancel()
            releasesB.cancel()
        }
        #expect(await b.route(roomId: "moved") == .local)
        let placed = try #require(try await store.placement(of: "moved"))
        // a was hung past its lease: woken, its own clock says it holds none.
        clock.advance(seconds: 20)
        #expect(!a.isServing)
        #expect(await a.route(roomId: "moved") == .elsewhere(placed))
        // The relay core counts the 4030 it answers (an audience join may be served here as an
        // edge instead): finding the room elsewhere counts nothing by itself.
        #expect(a.status?.redirects == 0)
        a.redirected()
        #expect(a.status?.redirects == 1)
        guard case .unavailable = await a.route(roomId: "nobody-serves-it") else {
            Issue.record("a room nobody serves was placed without a lease")
            return
        }
        store.fail(true)
        guard case .unavailable = await a.route(roomId: "moved") else {
            Issue.record("redirected without an answer from the database")
            return
        }
    }
}
