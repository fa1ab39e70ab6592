import Cluster

/// The directory of a single node: every room lives here, under epoch 0.
struct LocalRoomDirectory: RoomDirectory {
    /// The node itself, as the admin API's placement answers it (its control URL).
    let node: ClusterNode

    var nodeId: String { node.id }

    nonisolated(nonsending) func route(roomId: String) async -> ClusterRoute { .local }

    nonisolated(nonsending) func locate(roomId: String) async -> ClusterRoute { .local }

    func epoch(of roomId: String) -> Int64? { 0 }

    nonisolated(nonsending) func place(roomId: String) async throws -> RoomPlacement {
        RoomPlacement(roomId: roomId, node: node, epoch: 0)
    }

    func roomEnded(roomId: String) {}

    func redirected() {}

    nonisolated(nonsending) func liveNodes() async -> [ClusterNode] { [node] }

    var status: ClusterStatus? { nil }
}
