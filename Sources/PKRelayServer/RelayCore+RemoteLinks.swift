import Cluster
import Foundation
import Protocol
import RoomEngine

/// PK links between anchors of rooms on different cluster nodes (connectOtherRoom): the
/// caller's node checks the caller, the peer's node checks the peer and answers, and each node
/// then holds its half of the link.
extension RelayCore {
    /// Links across nodes when the peer room lives on another node; false when the request was
    /// answered here, true when it should go on to the usual (local) handling.
    func connectAcrossNodes(_ cluster: ClusterMembership, id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let link) = decode(ConnectOtherRoomParams.self, from: request), RelayIdentifier.isValid(link.roomId),
              engine.memberCount(roomId: link.roomId) == nil
        else { return true }
        return await linkAcrossNodes(cluster, id: id, link: link, session: session, answering: true)
    }

    /// Links the caller of `session` with an anchor of a room that may live on another node;
    /// `answering` answers request `id` (false for a link that an accepted invitation starts).
    /// True when the room turned out to be local.
    func linkAcrossNodes(_ cluster: ClusterMembership, id: RequestID?, link: ConnectOtherRoomParams, session: SessionID, answering: Bool) async -> Bool {
        func refuse(_ error: RelayError) -> Bool {
            if let local = try? engine.validateRemoteLink(session: session, params: link).get() {
                send(.connectOtherRoom(ConnectOtherRoomEvent(roomId: local, peerRoomId: link.roomId, peerUserId: link.userId, errorCode: error.code.rawValue, message: error.message)), to: session)
            }
            if answering { respond(id, Result<ConnectOtherRoomEvent, RelayError>.failure(error), to: session) }
            return false
        }
        let placement: RoomPlacement
        switch await cluster.locate(roomId: link.roomId) {
        case .local:
            if !answering { apply(engine.connectOtherRoom(session: session, params: link, now: now).actions) }
            return answering
        case .unavailable(let reason):
            return refuse(RelayError(.clusterUnavailable, reason))
        case .elsewhere(let found):
            placement = found
        }
        guard sessions[session] != nil else { return false }
        let localRoomId: String
        switch engine.validateRemoteLink(session: session, params: link) {
        case .failure(let error): return refuse(error)
        case .success(let found): localRoomId = found
        }
        guard let userId = engine.userId(of: session, roomId: localRoomId) else { return refuse(RelayError(.notInRoom, "not joined to room '\(localRoomId)'")) }
        var request = PeerMessage(.link)
        request.sourceRoomId = localRoomId
        request.userId = userId
        request.targetRoomId = link.roomId
        request.peerUserId = link.userId
        request.epoch = placement.epoch
        request.sourceEpoch = cluster.epoch(of: localRoomId)
        let asked = await ask(request, at: placement, unreachable: .targetRoomNotFound)
        guard sessions[session] != nil else { return false }
        let remote: RemoteTarget
        switch asked {
        case .failure(let error): return refuse(error)
        case .success(let answered): remote = answered.remote
        }
        let outcome = engine.createRemoteLink(session: session, params: link, remote: remote, now: now)
        if case .failure = outcome.result {
            // The caller's side changed while the peer's node answered: that half ends again.
            sendRemoteLinkEnded(RemoteLinkEnd(
                node: placement.node.id, anchorRoomId: link.roomId, anchorUserId: link.userId, peerRoomId: localRoomId, peerUserId: userId,
                reason: "disconnect", endedHere: false))
        }
        if answering { respond(id, outcome.result, to: session) }
        apply(outcome.actions)
        return false
    }

    /// A peer node's anchor asks to link with an anchor here.
    func peerLink(_ message: PeerMessage, from node: String) async -> PeerMessage {
        var reply = PeerMessage(.linked)
        guard let callerRoomId = message.sourceRoomId, let callerUserId = message.userId, let peerRoomId = message.targetRoomId, let peerUserId = message.peerUserId else {
            reply.error = RelayError(.linkInvalidParameter, "the link request lacks a room or user")
            return reply
        }
        // The peer's room must be here already (a link creates no room), under the epoch the
        // caller's node found.
        guard engine.memberCount(roomId: peerRoomId) != nil else {
            reply.error = RelayError(.targetRoomNotFound, "room '\(peerRoomId)' does not exist")
            return reply
        }
        if let refusal = await servesRoom(peerRoomId, epoch: message.epoch) {
            reply.error = RelayError(.targetRoomNotFound, refusal.message)
            return reply
        }
        guard let pipe = peerPipes[node] else {
            reply.error = RelayError(.targetRoomNotFound, "the connection from node \(node) is not ready")
            return reply
        }
        let outcome = engine.acceptRemoteLink(
            from: RemoteTarget(node: node, pipeTransportId: pipe.transportId, epoch: message.sourceEpoch ?? 0),
            callerRoomId: callerRoomId, callerUserId: callerUserId, peerRoomId: peerRoomId, peerUserId: peerUserId, now: now)
        apply(outcome.actions)
        if case .failure(let error) = outcome.result { reply.error = error }
        return reply
    }

    /// Tells the other node that a link with its anchor ended here.
    func sendRemoteLinkEnded(_ end: RemoteLinkEnd) {
        var message = PeerMessage(.linkEnded)
        message.sourceRoomId = end.peerRoomId
        message.userId = end.peerUserId
        message.targetRoomId = end.anchorRoomId
        message.peerUserId = end.anchorUserId
        message.reason = end.reason
        peers?.outbox.send(message, to: end.node)
    }

    /// Sends a message for members of a room on another node.
    func sendRemoteMessage(_ remote: RemoteMessage) {
        var message = PeerMessage(.message)
        message.targetRoomId = remote.roomId
        message.peerUserId = remote.recipientUserId
        message.message = remote.event
        peers?.outbox.send(message, to: remote.node)
    }

    /// The other node ended a link with an anchor here.
    func remoteLinkEnded(_ message: PeerMessage, from node: String) {
        guard let anchorRoomId = message.targetRoomId, let anchorUserId = message.peerUserId, let peerRoomId = message.sourceRoomId,
              let peerUserId = message.userId
        else { return }
        apply(engine.remoteLinkEnded(RemoteLinkEnd(
            node: node, anchorRoomId: anchorRoomId, anchorUserId: anchorUserId, peerRoomId: peerRoomId, peerUserId: peerUserId,
            reason: message.reason ?? "disconnect", endedHere: false)))
    }
}
