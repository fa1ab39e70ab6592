import Cluster
import Synchronization

/// The cluster's placement rules as ``ClusterStore`` keeps them in PostgreSQL, kept in memory
/// instead, with what a test scripts around them: leases that run out, an outage (calls fail,
/// or hang until the database is back), and releases held at a gate to interleave them with
/// other calls.
final class ScriptedPlacementStore: PlacementStore {
    struct Outage: Error, CustomStringConvertible {
        var description: String { "the database is down" }
    }

    private struct Row {
        var node: ClusterNode
        var leaseEpoch: Int64
        var epoch: Int64
    }

    private struct State {
        var nodes: [String: (node: ClusterNode, leaseEpoch: Int64, live: Bool)] = [:]
        var rows: [String: Row] = [:]
        var nextEpoch: Int64 = 1
        var failing = false
        var releases: [(roomId: String, epoch: Int64, removed: Bool)] = []
    }

    private let state = Mutex(State())
    /// Closed: every call waits until it opens again (a database that does not answer).
    let answering = TestGate()
    /// Closed: releases wait until it opens (the rest goes on).
    let releasing = TestGate()

    /// Registers `node` with a new lease.
    func register(_ node: ClusterNode) -> NodeLease {
        state.withLock { state in
            defer { state.nextEpoch += 1 }
            state.nodes[node.id] = (node, state.nextEpoch, true)
            return NodeLease(nodeId: node.id, epoch: state.nextEpoch, expiresAtMs: .max)
        }
    }

    /// `nodeId`'s lease runs out.
    func expire(_ nodeId: String) { state.withLock { $0.nodes[nodeId]?.live = false } }

    /// Calls throw from now on (true) or work again (false).
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Every release so far, with whether it removed a placement.
    var releases: [(roomId: String, epoch: Int64, removed: Bool)] { state.withLock { $0.releases } }

    // MARK: PlacementStore

    func liveNodes() async throws -> [ClusterNode] {
        try await reachable()
        return state.withLock { state in state.nodes.values.filter(\.live).map(\.node).sorted { $0.id < $1.id } }
    }

    func placement(of roomId: String) async throws -> RoomPlacement? {
        try await reachable()
        return state.withLock { Self.livePlacement(roomId, in: $0) }
    }

    func place(_ roomId: String) async throws -> RoomPlacement {
        try await reachable()
        return try state.withLock { state in
            if let placed = Self.livePlacement(roomId, in: state) { return placed }
            let live = state.nodes.values.filter(\.live).sorted { $0.node.id < $1.node.id }
            var load: [String: Int] = [:]
            for row in state.rows.values { load[row.node.id, default: 0] += 1 }
            guard let chosen = live.min(by: { load[$0.node.id, default: 0] < load[$1.node.id, default: 0] }) else { throw ClusterStoreError.noLiveNode }
            return Self.write(roomId, node: chosen.node, leaseEpoch: chosen.leaseEpoch, in: &state)
        }
    }

    func claim(_ roomId: String, for lease: NodeLease) async throws -> RoomPlacement {
        try await reachable()
        return try state.withLock { state in
            if let placed = Self.livePlacement(roomId, in: state) { return placed }
            guard let mine = state.nodes[lease.nodeId], mine.live, mine.leaseEpoch == lease.epoch else {
                throw ClusterStoreError.leaseLost(nodeId: lease.nodeId)
            }
            return Self.write(roomId, node: mine.node, leaseEpoch: lease.epoch, in: &state)
        }
    }

    @discardableResult
    func release(_ roomId: String, epoch: Int64) async throws -> Bool {
        await releasing.pass()
        try await reachable()
        return state.withLock { state in
            let removed = state.rows[roomId]?.epoch == epoch
            if removed { state.rows[roomId] = nil }
            state.releases.append((roomId, epoch, removed))
            return removed
        }
    }

    // MARK: Private

    private func reachable() async throws {
        await answering.pass()
        if state.withLock({ $0.failing }) { throw Outage() }
    }

    private static func livePlacement(_ roomId: String, in state: State) -> RoomPlacement? {
        guard let row = state.rows[roomId], let node = state.nodes[row.node.id], node.live, node.leaseEpoch == row.leaseEpoch else { return nil }
        return RoomPlacement(roomId: roomId, node: row.node, epoch: row.epoch)
    }

    private static func write(_ roomId: String, node: ClusterNode, leaseEpoch: Int64, in state: inout State) -> RoomPlacement {
        defer { state.nextEpoch += 1 }
        state.rows[roomId] = Row(node: node, leaseEpoch: leaseEpoch, epoch: state.nextEpoch)
        return RoomPlacement(roomId: roomId, node: node, epoch: state.nextEpoch)
    }
}
