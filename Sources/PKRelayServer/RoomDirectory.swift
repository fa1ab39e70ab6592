import Cluster

/// Where rooms live, as the relay core asks it: ``ClusterMembership`` in a cluster (placements
/// in PostgreSQL, claimed with fencing epochs), ``LocalRoomDirectory`` on a single node (every
/// room is here). The asynchronous requirements run on the caller's actor, so a directory that
/// answers without waiting (the local one, or a room already served here) lets no other request
/// of the relay core in between.
protocol RoomDirectory: Sendable {
    /// This node's id (empty on a single node).
    var nodeId: String { get }
    /// Where a join for `roomId` goes; a room nobody serves is claimed for this node.
    nonisolated(nonsending) func route(roomId: String) async -> ClusterRoute
    /// Where an existing room lives, without placing it (a link or an invitation creates no
    /// room): `.local` when this node serves it or nobody does.
    nonisolated(nonsending) func locate(roomId: String) async -> ClusterRoute
    /// The placement epoch under which this node serves `roomId`, if it does (0 on a single node).
    func epoch(of roomId: String) -> Int64?
    /// Places `roomId` where it should live, or returns where it lives (the admin API's placement).
    nonisolated(nonsending) func place(roomId: String) async throws -> RoomPlacement
    /// The room ended on this node: its placement is released.
    func roomEnded(roomId: String)
    /// A join was answered 4030 (counted for the admin stats and /metrics).
    func redirected()
    /// The nodes of the cluster holding a live lease, this one included; empty when the
    /// database cannot say now (a single node answers itself).
    nonisolated(nonsending) func liveNodes() async -> [ClusterNode]
    /// The membership figures for the admin stats and /metrics; nil on a single node.
    var status: ClusterStatus? { get }
}
