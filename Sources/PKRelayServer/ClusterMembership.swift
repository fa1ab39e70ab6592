import Cluster
import Deadline
import Logging
import Synchronization

/// This node's part in a cluster: its lease, the rooms it serves with their placement epochs,
/// and the way to where other rooms live. Shared by the relay core (joins, room ends) and the
/// cluster service (registration, renewals, and releasing the placements of rooms that ended).
///
/// A room's placement is released before the room can be placed on this node again: a join
/// for a room whose release is still under way waits for it (within ``databaseTimeout``), and a
/// placement read while a release of it was on its way is never taken up again. Otherwise a
/// quick rejoin could adopt the placement that the late release then deletes, and another node
/// could claim the room this node serves.
final class ClusterMembership: RoomDirectory {
    let store: any PlacementStore
    let configuration: ClusterConfiguration
    let logger: Logger
    /// The node's monotonic clock, in milliseconds (the lease keeper's time).
    let monotonicMs: @Sendable () -> Int64
    /// How long a request (a join, a placement) waits for the database before it is answered
    /// with "try again" rather than held for as long as an outage lasts.
    let databaseTimeout: Duration

    /// A placement this node gives back, and who waits for it to be gone.
    private struct Release {
        var epoch: Int64
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var lease: NodeLease?
        var keeper: LeaseKeeper?
        /// Rooms this node serves under the current lease, with their placement epochs.
        var rooms: [String: Int64] = [:]
        /// Rooms that ended here whose placements are not released for sure yet.
        var releasing: [String: Release] = [:]
        /// Placement epochs this node has begun to release. A read of the database that started
        /// before a release may still return its epoch: such an answer is not taken up. Kept
        /// while any read is in flight.
        var retired: Set<Int64> = []
        var readsInFlight = 0
    }

    private struct Counts {
        var leaseLosses: UInt64 = 0
        var renewalFailures: UInt64 = 0
        var redirects: UInt64 = 0
    }

    private let counts = Mutex(Counts())
    /// The live nodes as last read, and when (monotonic ms): read again after a renewal interval.
    private let liveNodesRead = Mutex<(nodes: [ClusterNode], atMs: Int64)?>(nil)

    private let state = Mutex(State())
    /// Rooms whose placements are to be released, for ``releaseEndedRooms()``.
    private let ended: AsyncStream<String>.Continuation
    private let endedRooms: AsyncStream<String>

    init(
        configuration: ClusterConfiguration, store: any PlacementStore, logger: Logger, databaseTimeout: Duration = .seconds(5),
        monotonicMs: @escaping @Sendable () -> Int64
    ) {
        self.configuration = configuration
        self.logger = logger
        self.monotonicMs = monotonicMs
        self.store = store
        self.databaseTimeout = databaseTimeout
        (endedRooms, ended) = AsyncStream.makeStream()
    }

    /// The lease held now, if any.
    var lease: NodeLease? { state.withLock { $0.lease } }

    /// Whether the node may serve rooms now.
    var isServing: Bool {
        let now = monotonicMs()
        return state.withLock { $0.keeper?.isServing(atMs: now) ?? false }
    }

    /// Where a join for `roomId` goes: claims the room for this node when nobody serves it. A
    /// node without a live lease (starting, or woken after its lease ran out) claims nothing,
    /// but still sends the client to the node that serves the room.
    nonisolated(nonsending) func route(roomId: String) async -> ClusterRoute {
        let now = monotonicMs()
        let (lease, known, serving) = state.withLock { ($0.lease, $0.rooms[roomId] != nil, $0.keeper?.isServing(atMs: now) ?? false) }
        guard let lease, serving else { return await routeWithoutLease(roomId: roomId) }
        if known { return .local }
        // Twice at most: a claim that raced a release of the room here is made again once the
        // release is through.
        for _ in 0..<2 {
            if let refusal = await waitForRelease(of: roomId) { return refusal }
            beginRead()
            defer { endRead() }
            let placement: RoomPlacement
            do {
                let store = self.store
                // A database that does not answer (stopped, or unreachable without a reset)
                // would hold the join for as long as the connection takes to fail: answer 4031.
                placement = try await withTimeout(databaseTimeout, "the cluster's database to place room '\(roomId)'") {
                    try await store.claim(roomId, for: lease)
                }
            } catch {
                logger.warning("cluster claim failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
                return .unavailable("the cluster cannot place the room now: \(error)")
            }
            guard placement.node.id == lease.nodeId else { return .elsewhere(placement) }
            let taken = state.withLock { state -> Bool? in
                guard state.lease == lease else { return nil }
                guard !state.retired.contains(placement.epoch) else { return false }
                state.rooms[roomId] = placement.epoch
                return true
            }
            switch taken {
            case true?: return .local
            case false?: continue
            case nil: return .unavailable("this node lost its cluster lease while it placed room '\(roomId)'; try again shortly")
            }
        }
        return .unavailable("room '\(roomId)' ended here a moment ago and is being placed anew; try again shortly")
    }

    /// A join reached this node while it holds no lease: it is sent to the room's node when
    /// another node serves the room, and asked to try again otherwise.
    private nonisolated(nonsending) func routeWithoutLease(roomId: String) async -> ClusterRoute {
        let unavailable = ClusterRoute.unavailable(
            "this node is not serving rooms now: it holds no cluster lease (starting, or cut off from the cluster's database); try again shortly")
        let store = self.store
        let found = try? await withTimeout(databaseTimeout, "the cluster's database to find room '\(roomId)'") { try await store.placement(of: roomId) }
        guard let placement = found, placement.node.id != configuration.nodeId
        else { return unavailable }
        return .elsewhere(placement)
    }

    /// Where an existing room lives, without placing it: `.local` when this node serves it or
    /// nobody does (a link or an invitation creates no room, so the local checks answer that it
    /// does not exist), `.elsewhere` when another live node serves it.
    nonisolated(nonsending) func locate(roomId: String) async -> ClusterRoute {
        if state.withLock({ $0.rooms[roomId] != nil }) { return .local }
        let store = self.store
        do {
            let placement = try await withTimeout(databaseTimeout, "the cluster's database to find room '\(roomId)'") { try await store.placement(of: roomId) }
            guard let placement, placement.node.id != configuration.nodeId else { return .local }
            return .elsewhere(placement)
        } catch {
            return .unavailable("the cluster cannot find the room now: \(error)")
        }
    }

    /// The placement epoch under which this node serves `roomId`, if it does.
    func epoch(of roomId: String) -> Int64? { state.withLock { $0.rooms[roomId] } }

    /// Places `roomId` on the least loaded node, or returns where it lives (the admin API's
    /// placement route): after the release of a room that just ended here, and within
    /// ``databaseTimeout``, which the admin API answers with 503. The room is not taken up here
    /// until a join for it arrives (which claims it without a new epoch).
    nonisolated(nonsending) func place(roomId: String) async throws -> RoomPlacement {
        for _ in 0..<2 {
            if case .unavailable(let reason) = await waitForRelease(of: roomId) { throw ClusterUnavailable(reason: reason) }
            beginRead()
            defer { endRead() }
            let store = self.store
            let placement = try await withTimeout(databaseTimeout, "the cluster's database to place room '\(roomId)'") { try await store.place(roomId) }
            if !state.withLock({ $0.retired.contains(placement.epoch) }) { return placement }
        }
        throw ClusterUnavailable(reason: "room '\(roomId)' ended on this node a moment ago and is being placed anew; try again shortly")
    }

    /// A join was answered 4030.
    func redirected() { counts.withLock { $0.redirects += 1 } }

    /// The live nodes, read from the database at most once a renewal interval; the last answer
    /// (or none) while the database does not answer within ``databaseTimeout``.
    nonisolated(nonsending) func liveNodes() async -> [ClusterNode] {
        let now = monotonicMs()
        let interval = Int64(configuration.renewSeconds) * 1000
        if let read = liveNodesRead.withLock({ $0 }), now - read.atMs < interval { return read.nodes }
        let store = self.store
        guard let nodes = try? await withTimeout(databaseTimeout, "the cluster's database to list its nodes", operation: { try await store.liveNodes() }) else {
            return liveNodesRead.withLock { $0?.nodes ?? [] }
        }
        liveNodesRead.withLock { $0 = (nodes, now) }
        return nodes
    }

    /// The room ended on this node: it is forgotten at once, and its placement is released by
    /// ``releaseEndedRooms()`` before the room can be placed here again.
    func roomEnded(roomId: String) {
        let ended = state.withLock { state -> Bool in
            guard let epoch = state.rooms.removeValue(forKey: roomId) else { return false }
            state.releasing[roomId] = Release(epoch: epoch)
            state.retired.insert(epoch)
            return true
        }
        if ended { self.ended.yield(roomId) }
    }

    /// Releases the placements of the rooms that end here, until the task is cancelled (run by
    /// the cluster service). A release that fails is tried again every second until the
    /// database has answered it or the lease is lost (which ends every placement bound to it):
    /// a release that timed out may still run later, so its room is placed anew only after one
    /// attempt has surely run.
    func releaseEndedRooms() async {
        await withDiscardingTaskGroup { group in
            for await roomId in endedRooms {
                group.addTask { await self.release(roomId) }
            }
        }
    }

    private func release(_ roomId: String) async {
        var complained = false
        while !Task.isCancelled {
            guard let epoch = state.withLock({ $0.releasing[roomId]?.epoch }) else { return }
            do {
                let store = self.store
                _ = try await withTimeout(databaseTimeout, "the cluster's database to release room '\(roomId)'") {
                    try await store.release(roomId, epoch: epoch)
                }
                finishRelease(roomId, epoch: epoch)
                return
            } catch {
                if !complained {
                    logger.warning("cluster release failed; retrying", metadata: ["room": "\(roomId)", "error": "\(error)"])
                    complained = true
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func finishRelease(_ roomId: String, epoch: Int64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.releasing[roomId]?.epoch == epoch, let release = state.releasing.removeValue(forKey: roomId) else { return [] }
            if state.readsInFlight == 0 { state.retired.remove(epoch) }
            return release.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until no release of `roomId` is under way here; a refusal when that takes longer
    /// than ``databaseTimeout``.
    private nonisolated(nonsending) func waitForRelease(of roomId: String) async -> ClusterRoute? {
        guard state.withLock({ $0.releasing[roomId] != nil }) else { return nil }
        do {
            try await withTimeout(databaseTimeout, "the release of room '\(roomId)'") { await self.released(roomId) }
            return nil
        } catch {
            return .unavailable("room '\(roomId)' ended here and its placement could not be released yet (\(error)); try again shortly")
        }
    }

    /// Returns once no release of `roomId` is under way.
    private func released(_ roomId: String) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Bool in
                guard state.releasing[roomId] != nil else { return false }
                state.releasing[roomId]!.waiters.append(waiter)
                return true
            }
            if !waiting { waiter.resume() }
        }
    }

    /// A read of the database whose answer may be taken up begins: the epochs of releases begun
    /// from now on are remembered until it ends.
    private func beginRead() { state.withLock { $0.readsInFlight += 1 } }

    private func endRead() {
        state.withLock { state in
            state.readsInFlight -= 1
            if state.readsInFlight == 0 { state.retired = Set(state.releasing.values.map(\.epoch)) }
        }
    }

    // MARK: The lease, driven by the cluster service

    /// A lease was granted by a registration sent at `sentAtMs`.
    func granted(_ lease: NodeLease, sentAtMs: Int64) {
        let keeper = LeaseKeeper(
            durationMs: Int64(configuration.leaseSeconds) * 1000, renewEveryMs: Int64(configuration.renewSeconds) * 1000,
            marginMs: Self.marginMs(configuration), registeredSentAtMs: sentAtMs)
        state.withLock { state in
            state.lease = lease
            state.keeper = keeper
            state.rooms = [:]
        }
    }

    /// What to do now about the lease.
    func tick() -> LeaseKeeper.Action {
        let now = monotonicMs()
        return state.withLock { $0.keeper?.tick(nowMs: now) ?? .none }
    }

    func renewalSent(atMs: Int64) { state.withLock { $0.keeper?.renewalSent(atMs: atMs) } }

    func renewed(sentAtMs: Int64) { state.withLock { $0.keeper?.renewed(sentAtMs: sentAtMs) } }

    func renewalFailed(sentAtMs: Int64) {
        counts.withLock { $0.renewalFailures += 1 }
        state.withLock { $0.keeper?.renewalFailed(sentAtMs: sentAtMs) }
    }

    /// The send time of a renewal in flight for longer than a renewal interval, if any.
    func overdueRenewal() -> Int64? {
        let now = monotonicMs()
        return state.withLock { $0.keeper?.renewalOverdue(nowMs: now, afterMs: Int64(configuration.renewSeconds) * 1000) }
    }

    func renewalRefused() -> LeaseKeeper.Action { state.withLock { $0.keeper?.renewalRefused() ?? .none } }

    /// Forgets the lease and the rooms (after stopping to serve them); returns the rooms.
    /// Releases under way end too: every placement of the old lease is void with it, and a
    /// claim under a new lease always gets a new epoch.
    func reset() -> [String] {
        counts.withLock { $0.leaseLosses += 1 }
        let (rooms, waiters) = state.withLock { state -> ([String], [CheckedContinuation<Void, Never>]) in
            let rooms = Array(state.rooms.keys)
            let waiters = state.releasing.values.flatMap(\.waiters)
            // Reads in flight keep the retired epochs they may still return.
            state.lease = nil
            state.keeper = nil
            state.rooms = [:]
            state.releasing = [:]
            return (rooms, waiters)
        }
        for waiter in waiters { waiter.resume() }
        return rooms
    }

    /// Where the membership stands now.
    var nodeId: String { configuration.nodeId }

    var status: ClusterStatus? {
        let now = monotonicMs()
        let (serving, epoch, rooms) = state.withLock { ($0.keeper?.isServing(atMs: now) ?? false, $0.lease?.epoch ?? 0, $0.rooms.count) }
        let counts = counts.withLock { $0 }
        return ClusterStatus(
            nodeId: configuration.nodeId, serving: serving, leaseEpoch: epoch, rooms: rooms,
            leaseLosses: counts.leaseLosses, renewalFailures: counts.renewalFailures, redirects: counts.redirects)
    }

    /// The margin: a renewal interval's worth, at most a quarter of the lease.
    static func marginMs(_ configuration: ClusterConfiguration) -> Int64 {
        min(Int64(configuration.renewSeconds) * 1000, Int64(configuration.leaseSeconds) * 250)
    }
}
