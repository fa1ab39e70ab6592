import Cluster
import Logging
import Protocol
import RoomEngine

/// The relay core's side of edge fan-out (docs/CLUSTER.md, "Edges"): an audience join for a
/// room another node holds is served here, the room's members arriving from that node.
extension RelayCore {
    /// Serves `roomId` here as an edge of the node `placement` names, for an audience join. The
    /// first viewer here waits until that node's members of the room have arrived, so that its
    /// join lists them as a join there would. False when that node cannot be reached or the room
    /// is served here for an older placement: the viewer is redirected there instead.
    func serveAsEdge(_ roomId: String, of placement: RoomPlacement) async -> Bool {
        let origin = EdgeOrigin(node: placement.node.id, epoch: placement.epoch)
        if engine.edgeOrigin(of: roomId) == origin, peerState[origin.node] != nil { return true }
        guard let peers, await peers.request(.sync, to: placement.node) != nil, peerState[origin.node] != nil else { return false }
        if engine.edgeOrigin(of: roomId) == origin { return true }
        originNodes[origin.node] = placement.node
        let outcome = engine.serveAsEdge(roomId: roomId, origin: origin)
        apply(outcome.actions)
        if case .failure(let error) = outcome.result {
            logger.info("an audience join is redirected instead of served as an edge", metadata: ["room": "\(roomId)", "reason": "\(error.message)"])
            return false
        }
        // The members the origin sends on following arrive before the answer to this.
        guard await peers.request(.sync, to: placement.node) != nil else { return false }
        return engine.edgeOrigin(of: roomId) == origin
    }

    /// switchRole, where a viewer served here as an edge cannot become an anchor: anchors are
    /// served by the room's node, so the answer is 4032 naming it (the client joins there as
    /// anchor). Everything else is the engine's.
    func switchRole(_ params: SwitchRoleParams, session: SessionID, now: EngineTime) -> EngineOutcome<EmptyResult> {
        guard params.role == .anchor, let origin = engine.edgeOrigin(of: params.roomId), let role = engine.role(of: session, roomId: params.roomId),
            role != .anchor
        else { return engine.switchRole(session: session, params: params, now: now) }
        let controlURL = originNodes[origin.node]?.controlURL
        let error = RelayError(
            .moveToRoomNode,
            "room '\(params.roomId)' is served here for node \(origin.node), which serves its anchors: join there as anchor"
                + (controlURL.map { " (\($0))" } ?? ""),
            data: RelayErrorData(controlURL: controlURL, nodeId: origin.node))
        let event = ServerEvent.switchRole(SwitchRoleEvent(roomId: params.roomId, role: role, errorCode: error.code.rawValue))
        return EngineOutcome(result: .failure(error), actions: [.event(session, event)])
    }

    /// The node an audience join for a room held here goes to instead, once the room has
    /// `cluster.edgeAfterAudience` audience members here: another live node, the same one for the
    /// same user every time (the highest of a hash of user and node: rendezvous hashing, so a
    /// node joining or leaving the cluster moves only its share of users). Nil when the join
    /// stays here.
    func spillTarget(for join: JoinRoomParams) async -> ClusterNode? {
        guard join.role == .audience else { return nil }
        return await spillTarget(roomId: join.roomId, userId: join.userId)
    }

    /// The edge an audience member `userId` of `roomId`, held here, is sent to now; nil while
    /// the room's node serves it itself.
    func spillTarget(roomId: String, userId: String) async -> ClusterNode? {
        let limit = configuration.cluster.edgeAfterAudience
        guard configuration.cluster.edges, limit > 0, engine.edgeOrigin(of: roomId) == nil, engine.localAudienceCount(roomId: roomId) >= limit else {
            return nil
        }
        let others = await directory.liveNodes().filter { $0.id != directory.nodeId }
        return others.max { Self.rendezvous(userId, $0.id) < Self.rendezvous(userId, $1.id) }
    }

    /// Where the audience member `userId` of the room `placement` names joins, when not on the
    /// room's node (the admin API's audience placement): the room's node decides, as it would
    /// for the join itself; a node that does not answer keeps the viewer on the room's node.
    func audienceEdge(for userId: String, of placement: RoomPlacement) async -> ClusterNode? {
        guard configuration.cluster.edges else { return nil }
        if placement.node.id == directory.nodeId { return await spillTarget(roomId: placement.roomId, userId: userId) }
        guard case .audienceNode(let chosen?)? = await peers?.request(.audienceNode(roomId: placement.roomId, userId: userId), to: placement.node) else {
            return nil
        }
        return await directory.liveNodes().first { $0.id == chosen }
    }

    /// FNV-1a of `userId`, a separator and `nodeId`, mixed (the same on every node and release).
    static func rendezvous(_ userId: String, _ nodeId: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in userId.utf8 + [0] + nodeId.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // FNV's low bits mix poorly for short inputs that differ at the end: finish with a
        // 64-bit avalanche (splitmix64's).
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
