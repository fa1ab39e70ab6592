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
    func inviteAcrossNodes(id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let invite) = decode(InviteParams.self, from: request), RelayIdentifier.isValid(invite.roomId),
            !engine.holdsRoom(invite.roomId)
        else { return true }
        func refuse(_ error: RelayError) -> Bool {
            respond(id, Result<InviteResult, RelayError>.failure(error), to: session)
            return false
        }
        let placement: RoomPlacement
        switch await directory.locate(roomId: invite.roomId) {
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
        let inviteId = engine.allocateInvitationId(prefix: directory.nodeId)
        let request = PeerRequest.invite(
            InvitationProposal(
                inviteId: inviteId, callerRoomId: caller.roomId, callerUserId: caller.userId, calleeRoomId: invite.roomId, calleeUserId: invite.userId,
                payload: invite.payload, timeoutSeconds: caller.timeoutSeconds, autoLink: invite.autoLink ?? false, epoch: placement.epoch,
                callerEpoch: directory.epoch(of: caller.roomId) ?? 0))
        let asked = await ask(request, at: placement, unreachable: .targetRoomNotFound)
        guard sessions[session] != nil else { return false }
        let (answer, remote): (PeerReply, RemoteTarget)
        switch asked {
        case .failure(let error): return refuse(error)
        case .success(let answered): (answer, remote) = answered
        }
        let busy = answer == .invited(busy: true)
        let outcome = engine.recordRemoteInvitation(session: session, params: invite, id: inviteId, to: remote, busy: busy, now: now)
        if case .failure = outcome.result, !busy {
            notify(.invitation(RemoteInvitationUpdate(node: placement.node.id, inviteId: inviteId, state: .canceled, reason: nil, payload: nil)))
        }
        respond(id, outcome.result, to: session)
        apply(outcome.actions)
        return false
    }

    /// A peer node's anchor invites an anchor here.
    func peerInvite(_ proposal: InvitationProposal, from node: String) async -> PeerReply {
        guard let pipe = peerState[node] else {
            return .refused(RelayError(.targetRoomNotFound, "the connection from node \(node) is not ready"))
        }
        guard engine.holdsRoom(proposal.calleeRoomId) else {
            return .refused(RelayError(.targetRoomNotFound, "room '\(proposal.calleeRoomId)' does not exist"))
        }
        let outcome = engine.receiveRemoteInvitation(
            from: RemoteTarget(node: node, pipeTransportId: pipe.transportId, epoch: proposal.callerEpoch), id: proposal.inviteId,
            callerRoomId: proposal.callerRoomId, callerUserId: proposal.callerUserId, calleeRoomId: proposal.calleeRoomId,
            calleeUserId: proposal.calleeUserId, payload: proposal.payload, timeoutSeconds: proposal.timeoutSeconds, autoLink: proposal.autoLink, now: now)
        apply(outcome.actions)
        switch outcome.result {
        case .failure(let error): return .refused(error)
        case .success(let busy): return .invited(busy: busy)
        }
    }
}
