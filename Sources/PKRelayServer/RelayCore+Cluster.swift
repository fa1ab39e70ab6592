import AdminAPI
import Cluster
import Foundation
import Logging
import Protocol
import RoomEngine

/// The relay core's side of a cluster: joins for rooms served elsewhere are redirected, forwards
/// into them are verified there, room ends release placements, and a node that lost its lease
/// stops serving. On a single node the directory answers that every room is here.
extension RelayCore {
    /// Routes a join through the directory; false when the join was answered here (a redirect,
    /// or the cluster unavailable). Parameters that do not even name a valid room go on to the
    /// usual checks, which answer them.
    func admitToCluster(id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let join) = decode(JoinRoomParams.self, from: request), RelayIdentifier.isValid(join.roomId) else { return true }
        let refusal: RelayError
        // A room already served here as an edge, its origin connected: the join needs no database
        // (a join storm on an edge reads nothing there).
        if configuration.cluster.edges, join.role == .audience, let origin = engine.edgeOrigin(of: join.roomId), peerState[origin.node] != nil {
            return true
        }
        switch await directory.route(roomId: join.roomId) {
        case .local:
            guard let edge = await spillTarget(for: join) else { return true }
            directory.redirected()
            refusal = RelayError(
                .roomOnAnotherNode,
                "room '\(join.roomId)' has as many audience members on this node as it serves (cluster.edgeAfterAudience): "
                    + "connect to \(edge.controlURL) and join there",
                data: RelayErrorData(controlURL: edge.controlURL, nodeId: edge.id))
        case .elsewhere(let placement):
            // Audience may stay here, served as an edge of the room's node, when this node does
            // that and can reach that node; anchors always go to the room's node.
            if configuration.cluster.edges, join.role == .audience, await serveAsEdge(join.roomId, of: placement) { return true }
            directory.redirected()
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
    /// answer, success or the target's error, replaces the local check. A target the forward
    /// already reaches on another node is asked there again without the directory, so an update
    /// does not depend on the cluster's database.
    func routeForwardTargets(request: Data, session: SessionID) async -> [String: ForwardTargetRequest] {
        guard case .success(let forward) = decode(StartForwardParams.self, from: request),
            let userId = engine.userId(of: session, roomId: forward.roomId)
        else { return [:] }
        var resolved: [String: ForwardTargetRequest] = [:]
        for target in forward.targets where RelayIdentifier.isValid(target.roomId) && target.roomId != forward.roomId && resolved[target.roomId] == nil {
            if let running = engine.remoteForwardTarget(sourceRoomId: forward.roomId, userId: userId, targetRoomId: target.roomId),
                let node = await peers?.knownNode(running.node)
            {
                let placement = RoomPlacement(roomId: target.roomId, node: node, epoch: running.epoch)
                resolved[target.roomId] = await verifyRemoteTarget(placement, sourceRoomId: forward.roomId, userId: userId, token: target.token)
                continue
            }
            switch await directory.route(roomId: target.roomId) {
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
        let request = PeerRequest.verify(
            ForwardVerification(sourceRoomId: sourceRoomId, targetRoomId: roomId, userId: userId, token: token, epoch: placement.epoch))
        switch await ask(request, at: placement, unreachable: .forwardNotSupported) {
        case .failure(let error):
            return ForwardTargetRequest(roomId: roomId, grants: .failure(error))
        case .success(let (.verified(expiresAtMs), remote)):
            return ForwardTargetRequest(
                roomId: roomId,
                grants: .success(TokenGrants(publish: true, subscribe: false, forward: false, hidden: false, expiresAt: EngineTime(milliseconds: expiresAtMs))),
                remote: remote)
        case .success:
            return ForwardTargetRequest(
                roomId: roomId, grants: .failure(RelayError(.forwardNotSupported, "node \(placement.node.id) answered a verification with something else")))
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
    /// A single node answers itself. A database that does not answer in time is a 503, not a
    /// request held for as long as the outage lasts.
    func adminPlacement(_ roomId: String, controlURL: String, viewer: String? = nil) async -> AdminResponse {
        guard directory.status != nil else {
            return .answer(AdminPlacement(roomId: roomId, nodeId: "", controlURL: controlURL, epoch: 0))
        }
        do {
            let placement = try await directory.place(roomId: roomId)
            if let viewer, let edge = await audienceEdge(for: viewer, of: placement) {
                return .answer(
                    AdminPlacement(roomId: roomId, nodeId: edge.id, controlURL: edge.controlURL, epoch: placement.epoch, roomNodeId: placement.node.id))
            }
            return .answer(AdminPlacement(roomId: roomId, nodeId: placement.node.id, controlURL: placement.node.controlURL, epoch: placement.epoch))
        } catch ClusterStoreError.noLiveNode {
            return .error(.unavailable, "no node of the cluster holds a live lease")
        } catch {
            logger.warning("cluster placement failed", metadata: ["room": "\(roomId)", "error": "\(error)"])
            return .error(.unavailable, "the cluster cannot place the room now: \(error)")
        }
    }
}
