import AdminAPI
import Cluster
import Foundation
import Protocol
import RoomEngine

/// The relay core's side of a cluster: joins for rooms served elsewhere are redirected, forwards
/// into them are verified there, room ends release placements, and a node that lost its lease
/// stops serving.
extension RelayCore {
    /// Routes a join through the cluster; false when the join was answered here (a redirect, or
    /// the cluster unavailable). Parameters that do not even name a valid room go on to the
    /// usual checks, which answer them.
    func admitToCluster(_ cluster: ClusterMembership, id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let join) = decode(JoinRoomParams.self, from: request), RelayIdentifier.isValid(join.roomId) else { return true }
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

    /// Finds each forward target's node (claiming unplaced target rooms here). A target room on
    /// another node is verified there (its token, and whether the room can show the user); the
    /// answer, success or the target's error, replaces the local check.
    func routeForwardTargets(_ cluster: ClusterMembership, request: Data, session: SessionID) async -> [String: ForwardTargetRequest] {
        guard case .success(let forward) = decode(StartForwardParams.self, from: request),
              let userId = engine.userId(of: session, roomId: forward.roomId)
        else { return [:] }
        var resolved: [String: ForwardTargetRequest] = [:]
        for target in forward.targets where RelayIdentifier.isValid(target.roomId) && target.roomId != forward.roomId && resolved[target.roomId] == nil {
            switch await cluster.route(roomId: target.roomId) {
            case .local:
                continue
            case .elsewhere(let placement):
                resolved[target.roomId] = await verifyRemoteTarget(placement, sourceRoomId: forward.roomId, userId: userId, token: target.token)
            case .unavailable(let reason):
                resolved[target.roomId] = ForwardTargetRequest(roomId: target.roomId, grants: .failure(RelayError(.forwardNotSupported, reason)))
            }
        }
        return resolved
    }

    /// Asks the node serving a target room to verify a forward into it.
    func verifyRemoteTarget(_ placement: RoomPlacement, sourceRoomId: String, userId: String, token: String) async -> ForwardTargetRequest {
        let roomId = placement.roomId
        func failed(_ code: ErrorCode, _ message: String) -> ForwardTargetRequest {
            ForwardTargetRequest(roomId: roomId, grants: .failure(RelayError(code, message)))
        }
        var request = PeerMessage(.verify)
        request.sourceRoomId = sourceRoomId
        request.targetRoomId = roomId
        request.userId = userId
        request.token = token
        request.epoch = placement.epoch
        switch await ask(request, at: placement, unreachable: .forwardNotSupported) {
        case .failure(let error):
            return ForwardTargetRequest(roomId: roomId, grants: .failure(error))
        case .success(let (answer, remote)):
            guard let expiresAtMs = answer.expiresAtMs else { return failed(.forwardNotSupported, "node \(placement.node.id) answered without the target token's expiry") }
            return ForwardTargetRequest(
                roomId: roomId,
                grants: .success(TokenGrants(publish: true, subscribe: false, forward: false, hidden: false, expiresAt: EngineTime(milliseconds: expiresAtMs))),
                remote: remote)
        }
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
            return .answer(AdminPlacement(roomId: roomId, nodeId: "", controlURL: controlURL, epoch: 0))
        }
        do {
            let placement = try await cluster.place(roomId: roomId)
            return .answer(AdminPlacement(roomId: roomId, nodeId: placement.node.id, controlURL: placement.node.controlURL, epoch: placement.epoch))
        } catch ClusterStoreError.noLiveNode {
            return .error(.unavailable, "no node of the cluster holds a live lease")
        } catch {
            logger.warning("cluster placement failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
            return .error(.unavailable, "the cluster cannot place the room now: \(error)")
        }
    }
}
