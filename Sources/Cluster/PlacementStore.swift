/// The placement rules of the cluster as a node's directory uses them: where a room lives, a
/// claim for this node, a placement anywhere, and a release. ``ClusterStore`` keeps them in
/// PostgreSQL; tests script them.
public protocol PlacementStore: Sendable {
    /// Where `roomId` lives now: nil when it is not placed or its node's lease is no longer live.
    func placement(of roomId: String) async throws -> RoomPlacement?
    /// Places `roomId` on the least loaded live node, or returns where it lives.
    func place(_ roomId: String) async throws -> RoomPlacement
    /// Claims `roomId` for the node holding `lease` when nobody serves it; otherwise returns the
    /// placement that stands.
    func claim(_ roomId: String, for lease: NodeLease) async throws -> RoomPlacement
    /// Removes the placement `epoch` of `roomId`; false when that placement no longer stands.
    @discardableResult
    func release(_ roomId: String, epoch: Int64) async throws -> Bool
    /// The nodes holding a live lease, by id.
    func liveNodes() async throws -> [ClusterNode]
}
