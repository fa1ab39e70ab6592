import Cluster
import Foundation
import Protocol
import RoomEngine

/// The relay core's side of a cluster: joins for rooms served elsewhere are redirected, room
/// ends release placements, and a node that lost its lease stops serving.
extension RelayCore {
    /// Routes a join through the cluster; false when the join was answered here (a redirect, or
    /// the cluster unavailable). Parameters that do not even name a valid room go on to the
    /// usual checks, which answer them.
    func admitToCluster(_ cluster: ClusterMembership, id: RequestID?, params: Data, session: SessionID) async -> Bool {
        guard case .success(let join) = decode(JoinRoomParams.self, from: params), RelayIdentifier.isValid(join.roomId) else { return true }
        let refusal: RelayError
        switch await cluster.route(roomId: join.roomId) {
        case .local:
            return true
        case .elsewhere(let placement):
            refusal = RelayError(
                .roomOnAnotherNode, "room '\(join.roomId)' lives on node \(placement.node.id): connect to \(placement.node.controlURL) and join there",
                data: RelayErrorData(controlURL: placement.node.controlURL, nodeId: placement.node.id))
        case .unavailable(let reason):
            refusal = RelayError(.clusterUnavailable, reason)
        }
        guard sessions[session] != nil else { return false }
        respond(id, Result<EmptyResult, RelayError>.failure(refusal), to: session)
        send(.roomStateChanged(RoomStateChangedEvent(roomId: join.roomId, userId: join.userId, state: refusal.code.rawValue, joinType: 0)), to: session)
        return false
    }

    /// Finds each forward target's node (claiming unplaced target rooms here); the targets that
    /// live elsewhere, with the error they fail with: forwarding across nodes is not built yet,
    /// and creating the room here too would put it on two nodes.
    func routeForwardTargets(_ cluster: ClusterMembership, params: Data) async -> [String: RelayError] {
        guard case .success(let forward) = decode(StartForwardParams.self, from: params) else { return [:] }
        var unreachable: [String: RelayError] = [:]
        for target in forward.targets where RelayIdentifier.isValid(target.roomId) && unreachable[target.roomId] == nil {
            switch await cluster.route(roomId: target.roomId) {
            case .local:
                continue
            case .elsewhere(let placement):
                unreachable[target.roomId] = RelayError(
                    .forwardNotSupported, "room '\(target.roomId)' lives on node \(placement.node.id); forwarding to a room on another node is not supported yet")
            case .unavailable(let reason):
                unreachable[target.roomId] = RelayError(.forwardNotSupported, reason)
            }
        }
        return unreachable
    }

    /// How many rooms this node holds (reported with every lease renewal).
    var roomCount: Int { engine.roomIds.count }

    /// Ends every room (the node lost its cluster lease): each user hears onExitRoom as for a
    /// dismissed room, with `reason`, and stays connected to join again through the room server.
    func dismissAllRooms(reason: String) {
        for roomId in engine.roomIds {
            apply(engine.dismiss(roomId: roomId, reason: reason, now: now).actions)
        }
    }

    /// Where `roomId` lives, placing it when nobody serves it (the admin API's placement route).
    /// A single node answers itself.
    func adminPlacement(_ roomId: String, controlURL: String) async -> AdminResponse {
        guard let cluster else {
            return .json(["roomId": roomId, "nodeId": "", "controlURL": controlURL, "epoch": 0])
        }
        do {
            let placement = try await cluster.place(roomId: roomId)
            return .json(["roomId": roomId, "nodeId": placement.node.id, "controlURL": placement.node.controlURL, "epoch": placement.epoch])
        } catch ClusterStoreError.noLiveNode {
            return .error(503, "unavailable", "no node of the cluster holds a live lease")
        } catch {
            logger.warning("cluster placement failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
            return .error(503, "unavailable", "the cluster cannot place the room now: \(error)")
        }
    }
}
