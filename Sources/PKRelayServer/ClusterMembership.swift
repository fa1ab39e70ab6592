import Cluster
import Deadline
import Logging
import Synchronization

/// This node's part in a cluster: its lease, the rooms it serves with their placement epochs,
/// and the way to where other rooms live. Shared by the relay core (joins, room ends) and the
/// cluster service (registration and renewals).
final class ClusterMembership: RoomDirectory {
    let store: ClusterStore
    let configuration: ClusterConfiguration
    let logger: Logger
    /// The node's monotonic clock, in milliseconds (the lease keeper's time).
    let monotonicMs: @Sendable () -> Int64

    private struct State {
        var lease: NodeLease?
        var keeper: LeaseKeeper?
        /// Rooms this node serves under the current lease, with their placement epochs.
        var rooms: [String: Int64] = [:]
    }

    private struct Counts {
        var leaseLosses: UInt64 = 0
        var renewalFailures: UInt64 = 0
        var redirects: UInt64 = 0
    }

    private let counts = Mutex(Counts())

    private let state = Mutex(State())

    init(configuration: ClusterConfiguration, address: DatabaseAddress, logger: Logger, monotonicMs: @escaping @Sendable () -> Int64) throws {
        self.configuration = configuration
        self.logger = logger
        self.monotonicMs = monotonicMs
        self.store = ClusterStore(
            configuration: try address.clientConfiguration(), leaseDurationMs: Int64(configuration.leaseSeconds) * 1000, logger: logger)
    }

    /// The lease held now, if any.
    var lease: NodeLease? { state.withLock { $0.lease } }

    /// Whether the node may serve rooms now.
    var isServing: Bool {
        let now = monotonicMs()
        return state.withLock { $0.keeper?.isServing(atMs: now) ?? false }
    }

    /// How long a join waits for the database to place a room nobody serves yet.
    static let claimTimeout: Duration = .seconds(5)

    /// Where a join for `roomId` goes: claims the room for this node when nobody serves it.
    nonisolated(nonsending) func route(roomId: String) async -> ClusterRoute {
        let now = monotonicMs()
        let (lease, known, serving) = state.withLock { ($0.lease, $0.rooms[roomId] != nil, $0.keeper?.isServing(atMs: now) ?? false) }
        guard let lease, serving else {
            return .unavailable("this node is not serving rooms now: it holds no cluster lease (starting, or cut off from the cluster's database); try again shortly")
        }
        if known { return .local }
        let store = self.store
        do {
            // A database that does not answer (stopped, or unreachable without a reset) would
            // hold the join for as long as the connection takes to fail: answer 4031 instead.
            let placement = try await withTimeout(Self.claimTimeout, "the cluster's database to place room '\(roomId)'") {
                try await store.claim(roomId, for: lease)
            }
            guard placement.node.id == lease.nodeId else {
                counts.withLock { $0.redirects += 1 }
                return .elsewhere(placement)
            }
            state.withLock { if $0.lease == lease { $0.rooms[roomId] = placement.epoch } }
            return .local
        } catch {
            logger.warning("cluster claim failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
            return .unavailable("the cluster cannot place the room now: \(error)")
        }
    }

    /// Where an existing room lives, without placing it: `.local` when this node serves it or
    /// nobody does (a link or an invitation creates no room, so the local checks answer that it
    /// does not exist), `.elsewhere` when another live node serves it.
    nonisolated(nonsending) func locate(roomId: String) async -> ClusterRoute {
        if state.withLock({ $0.rooms[roomId] != nil }) { return .local }
        let store = self.store
        do {
            let placement = try await withTimeout(Self.claimTimeout, "the cluster's database to find room '\(roomId)'") {
                try await store.placement(of: roomId)
            }
            guard let placement, placement.node.id != configuration.nodeId else { return .local }
            return .elsewhere(placement)
        } catch {
            return .unavailable("the cluster cannot find the room now: \(error)")
        }
    }

    /// The placement epoch under which this node serves `roomId`, if it does.
    func epoch(of roomId: String) -> Int64? { state.withLock { $0.rooms[roomId] } }

    /// Places `roomId` on the least loaded node, or returns where it lives (the admin API's
    /// placement route). A room placed on this node is noted as served here.
    nonisolated(nonsending) func place(roomId: String) async throws -> RoomPlacement {
        let placement = try await store.place(roomId)
        state.withLock { if $0.lease?.nodeId == placement.node.id { $0.rooms[roomId] = placement.epoch } }
        return placement
    }

    /// The room ended on this node: its placement is released so it can be placed anew.
    func roomEnded(roomId: String) {
        guard let epoch = state.withLock({ $0.rooms.removeValue(forKey: roomId) }) else { return }
        let store = self.store
        let logger = self.logger
        Task {
            do {
                try await store.release(roomId, epoch: epoch)
            } catch {
                // The placement stays until the lease ends; a later join claims it again here.
                logger.warning("cluster release failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
            }
        }
    }

    // MARK: The lease, driven by the cluster service

    /// A lease was granted by a registration sent at `sentAtMs`.
    func granted(_ lease: NodeLease, sentAtMs: Int64) {
        let keeper = LeaseKeeper(
            durationMs: Int64(configuration.leaseSeconds) * 1000, renewEveryMs: Int64(configuration.renewSeconds) * 1000,
            marginMs: Self.marginMs(configuration), registeredSentAtMs: sentAtMs)
        state.withLock { $0 = State(lease: lease, keeper: keeper, rooms: [:]) }
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
    func reset() -> [String] {
        counts.withLock { $0.leaseLosses += 1 }
        return state.withLock { state in
            defer { state = State() }
            return Array(state.rooms.keys)
        }
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
