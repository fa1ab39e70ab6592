import Cluster
import Foundation
import Protocol
import RoomEngine

/// PK invitations to anchors of rooms on other cluster nodes: the caller's node checks the
/// caller and names the invitation, the callee's node checks the callee and tells it; a final
/// state on either side is sent to the other.
extension RelayCore {
    /// Invites across nodes when the invitee's room lives on another node; false when the
    /// request was answered here, true when it should go on to the usual (local) handling.
    func inviteAcrossNodes(_ cluster: ClusterMembership, id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let invite) = decode(InviteParams.self, from: request), RelayIdentifier.isValid(invite.roomId),
              engine.memberCount(roomId: invite.roomId) == nil
        else { return true }
        func refuse(_ error: RelayError) -> Bool {
            respond(id, Result<InviteResult, RelayError>.failure(error), to: session)
            return false
        }
        let placement: RoomPlacement
        switch await cluster.locate(roomId: invite.roomId) {
        case .local: return true
        case .unavailable(let reason): return refuse(RelayError(.clusterUnavailable, reason))
        case .elsewhere(let found): placement = found
        }
        guard sessions[session] != nil else { return false }
        let caller: (roomId: String, userId: String, timeoutSeconds: Int)
        switch engine.validateRemoteInvite(session: session, params: invite) {
        case .failure(let error): return refuse(error)
        case .success(let found): caller = found
        }
        let inviteId = engine.allocateInvitationId(prefix: cluster.configuration.nodeId)
        var request = PeerMessage(.invite)
        request.inviteId = inviteId
        request.sourceRoomId = caller.roomId
        request.userId = caller.userId
        request.targetRoomId = invite.roomId
        request.peerUserId = invite.userId
        request.payload = invite.payload
        request.timeoutSeconds = caller.timeoutSeconds
        request.autoLink = invite.autoLink
        request.epoch = placement.epoch
        request.sourceEpoch = cluster.epoch(of: caller.roomId)
        let asked = await ask(request, at: placement, unreachable: .targetRoomNotFound)
        guard sessions[session] != nil else { return false }
        let (answer, remote): (PeerMessage, RemoteTarget)
        switch asked {
        case .failure(let error): return refuse(error)
        case .success(let answered): (answer, remote) = answered
        }
        let outcome = engine.recordRemoteInvitation(session: session, params: invite, id: inviteId, to: remote, busy: answer.busy ?? false, now: now)
        if case .failure = outcome.result, answer.busy != true {
            sendRemoteInvitation(RemoteInvitationUpdate(node: placement.node.id, inviteId: inviteId, state: .canceled, reason: nil, payload: nil))
        }
        respond(id, outcome.result, to: session)
        apply(outcome.actions)
        return false
    }

    /// A peer node's anchor invites an anchor here.
    func peerInvite(_ message: PeerMessage, from node: String) async -> PeerMessage {
        var reply = PeerMessage(.invited)
        guard let inviteId = message.inviteId, let callerRoomId = message.sourceRoomId, let callerUserId = message.userId,
              let calleeRoomId = message.targetRoomId, let calleeUserId = message.peerUserId, let pipe = peerPipes[node]
        else {
            reply.error = RelayError(.invitationInvalidArgument, "the invitation lacks an id, a room or a user")
            return reply
        }
        guard engine.memberCount(roomId: calleeRoomId) != nil else {
            reply.error = RelayError(.targetRoomNotFound, "room '\(calleeRoomId)' does not exist")
            return reply
        }
        let outcome = engine.receiveRemoteInvitation(
            from: RemoteTarget(node: node, pipeTransportId: pipe.transportId, epoch: message.sourceEpoch ?? 0), id: inviteId,
            callerRoomId: callerRoomId, callerUserId: callerUserId, calleeRoomId: calleeRoomId, calleeUserId: calleeUserId,
            payload: message.payload, timeoutSeconds: message.timeoutSeconds ?? 0, autoLink: message.autoLink ?? false, now: now)
        apply(outcome.actions)
        switch outcome.result {
        case .failure(let error): reply.error = error
        case .success(let busy): reply.busy = busy
        }
        return reply
    }

    /// Tells the other node that an invitation with its anchor ended here.
    func sendRemoteInvitation(_ update: RemoteInvitationUpdate) {
        var message = PeerMessage(.invitation)
        message.inviteId = update.inviteId
        message.invitationState = update.state
        message.reason = update.reason
        message.payload = update.payload
        peers?.outbox.send(message, to: update.node)
    }
}
