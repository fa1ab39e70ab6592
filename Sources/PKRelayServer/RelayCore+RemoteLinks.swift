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
    func connectAcrossNodes(id: RequestID?, request: Data, session: SessionID) async -> Bool {
        guard case .success(let link) = decode(ConnectOtherRoomParams.self, from: request), RelayIdentifier.isValid(link.roomId),
            !engine.holdsRoom(link.roomId)
        else { return true }
        return await linkAcrossNodes(id: id, link: link, session: session, answering: true)
    }

    /// Links the caller of `session` with an anchor of a room that may live on another node;
    /// `answering` answers request `id` (false for a link that an accepted invitation starts).
    /// True when the room turned out to be local.
    func linkAcrossNodes(id: RequestID?, link: ConnectOtherRoomParams, session: SessionID, answering: Bool) async -> Bool {
        // The answer comes first, then the event, as for every request (PROTOCOL.md, "Order"); the
        // event goes whenever the caller's room is known, as on one node (the caller's own
        // refusals, such as a token without the forward grant, included).
        func refuse(_ error: RelayError) -> Bool {
            if answering { respond(id, Result<ConnectOtherRoomEvent, RelayError>.failure(error), to: session) }
            if let local = callerRoom(session: session, named: link.localRoomId) {
                send(
                    .connectOtherRoom(
                        ConnectOtherRoomEvent(
                            roomId: local, peerRoomId: link.roomId, peerUserId: link.userId, errorCode: error.code.rawValue, message: error.message)),
                    to: session)
            }
            return false
        }
        let placement: RoomPlacement
        switch await directory.locate(roomId: link.roomId) {
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
        let request = PeerRequest.link(
            LinkProposal(
                callerRoomId: localRoomId, callerUserId: userId, peerRoomId: link.roomId, peerUserId: link.userId, epoch: placement.epoch,
                callerEpoch: directory.epoch(of: localRoomId) ?? 0))
        // The peer's node shows its anchor in the caller's room as it accepts, before its answer
        // arrives: that mirror is held until the caller has its answer, so the caller hears the
        // answer first, then the peer appear, then onConnectOtherRoom, as on one node.
        let asking = PeerState.LinkAsked(node: placement.node.id, callerRoomId: localRoomId, peerUserId: link.userId)
        peerState.asking(asking)
        let asked = await ask(request, at: placement, unreachable: .targetRoomNotFound)
        let held = peerState.answered(asking)
        // The caller's side changed while the peer's node answered: the peer's half ends again.
        func undo() {
            notify(
                .linkEnded(
                    RemoteLinkEnd(
                        node: placement.node.id, anchorRoomId: link.roomId, anchorUserId: link.userId, peerRoomId: localRoomId, peerUserId: userId,
                        reason: "disconnect", endedHere: false)))
        }
        let remote: RemoteTarget
        switch asked {
        case .failure(let error):
            return sessions[session] == nil ? false : refuse(error)
        case .success(let answered):
            remote = answered.remote
        }
        guard sessions[session] != nil else {
            undo()
            return false
        }
        let outcome = engine.createRemoteLink(session: session, params: link, remote: remote, now: now)
        guard case .success = outcome.result else {
            undo()
            if answering { respond(id, outcome.result, to: session) }
            apply(outcome.actions)
            return false
        }
        if answering { respond(id, outcome.result, to: session) }
        for notice in held { await peerNotice(notice, from: placement.node.id) }
        apply(outcome.actions)
        return false
    }

    /// The caller's room for a link: the one named, when joined, or the only room of the session.
    private func callerRoom(session: SessionID, named: String?) -> String? {
        if let named { return engine.userId(of: session, roomId: named) == nil ? nil : named }
        let joined = engine.rooms(of: session)
        return joined.count == 1 ? joined[0] : nil
    }

    /// A peer node's anchor asks to link with an anchor here.
    func peerLink(_ proposal: LinkProposal, from node: String) async -> PeerReply {
        // The peer's room must be here already (a link creates no room), under the epoch the
        // caller's node found.
        guard engine.holdsRoom(proposal.peerRoomId) else {
            return .refused(RelayError(.targetRoomNotFound, "room '\(proposal.peerRoomId)' does not exist"))
        }
        if let refusal = await servesRoom(proposal.peerRoomId, epoch: proposal.epoch) {
            return .refused(RelayError(.targetRoomNotFound, refusal.message))
        }
        guard let pipe = peerState[node] else {
            return .refused(RelayError(.targetRoomNotFound, "the connection from node \(node) is not ready"))
        }
        let outcome = engine.acceptRemoteLink(
            from: RemoteTarget(node: node, pipeTransportId: pipe.transportId, epoch: proposal.callerEpoch),
            callerRoomId: proposal.callerRoomId, callerUserId: proposal.callerUserId, peerRoomId: proposal.peerRoomId, peerUserId: proposal.peerUserId, now: now
        )
        apply(outcome.actions)
        if case .failure(let error) = outcome.result { return .refused(error) }
        return .linked
    }
}
