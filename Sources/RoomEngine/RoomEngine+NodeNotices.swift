public import Protocol

extension RoomEngine {
    /// Takes in what another node told this one (`node` is the sender). A mirror can only be
    /// shown while the pipe from that node is connected; a refused one is answered with its end,
    /// so the sender's forward target fails as it would on one node.
    public mutating func receive(_ notice: NodeNotice, from node: String, now: EngineTime) -> [EngineAction] {
        var notice = notice
        notice.node = node
        switch notice {
        case .mirror(let update):
            guard let publications = update.publications else {
                return removeRemoteMirror(
                    node: node, targetRoomId: update.targetRoomId, userId: update.userId, leaveReason: update.leaveReason,
                    unpublishReason: update.unpublishReason)
            }
            guard let pipe = pipeTransports[node] else { return [] }
            let outcome = applyRemoteMirror(
                node: node, pipeTransportId: pipe, sourceRoomId: update.sourceRoomId, targetRoomId: update.targetRoomId, userId: update.userId,
                role: update.role, expiresAt: update.expiresAt, publications: publications, now: now)
            guard case .failure(let refusal) = outcome.result else { return outcome.actions }
            return outcome.actions + [refuseRemoteMirror(update, from: node, because: refusal)]
        case .mirrorEnded(var end):
            end.node = node
            return remoteMirrorEnded(end, now: now)
        case .linkEnded(var end):
            end.endedHere = false
            return remoteLinkEnded(end)
        case .message(let message):
            return deliverRemoteMessage(message, from: node)
        case .invitation(let update):
            return remoteInvitationUpdate(update, now: now)
        case .demand(let demand):
            return remotePipeDemand(node: node, ssrc: demand.ssrc, wanted: demand.wanted)
        case .replica(let update):
            return applyReplica(update, from: node, now: now)
        case .follow(let follow):
            return edgeFollows(follow, from: node)
        case .unfollow(let follow):
            return edgeUnfollows(follow, from: node)
        case .edgeRoomEnded(let end):
            return edgeRoomEnded(end, from: node)
        }
    }

    /// The answer to a mirror this node cannot show (the error says why): the sender ends that
    /// forward target with the error's code.
    public func refuseRemoteMirror(_ update: RemoteMirrorUpdate, from node: String, because refusal: RelayError) -> EngineAction {
        .notify(
            .mirrorEnded(
                RemoteMirrorEnd(
                    node: node, sourceRoomId: update.sourceRoomId, targetRoomId: update.targetRoomId, userId: update.userId,
                    forwardError: refusal.code, leaveReason: .dropped)))
    }
}
