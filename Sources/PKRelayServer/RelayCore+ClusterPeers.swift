import Cluster
import Foundation
import MediaPlane
import Protocol
import RoomEngine
import SecureTransport

/// The relay core's side of the node-to-node connections: media pipes open and close with
/// them, forwards into rooms on other nodes are verified there, and mirrors are kept in step.
extension RelayCore {
    /// Opens this node's end of the media pipe for a new connection to `node` (closing the end
    /// of an older connection to it, whose state goes as for a lost connection).
    func openPeerPipe(node: String, generation: UInt64) -> PipeOffer? {
        if let old = peerPipes[node] { peerLost(node: node, generation: old.generation) }
        switch media.openTransport(profile: .aeadAES128GCM, group: nil) {
        case .success(let opened):
            // A pipe serves rooms on every shard: it goes to the least loaded one.
            media.place(transports: [opened.id], group: nil)
            peerPipes[node] = PeerPipe(generation: generation, transportId: opened.id)
            return PipeOffer(ip: media.announcedAddress, port: opened.port, key: SDESKeying.encodeBase64(opened.relayKey ?? []))
        case .failure(let error):
            logger.error("could not open the media pipe to a cluster peer", metadata: ["peer": "\(node)", "error": "\(error)"])
            return nil
        }
    }

    /// Both hellos are through: the pipe connects to the peer's end, and forwards into rooms
    /// there resume on it. A peer that is a new process under a known node id lost its rooms:
    /// forwards into them fail first.
    func peerReady(node: String, generation: UInt64, remote: PipeOffer, instance: String) -> Bool {
        guard let pipe = peerPipes[node], pipe.generation == generation else { return false }
        if let known = peerInstances[node], known != instance {
            logger.warning("cluster peer restarted: forwards into its rooms end", metadata: ["peer": "\(node)"])
            apply(engine.remoteNodeGone(node))
        }
        peerInstances[node] = instance
        guard let endpoint = IPv4Endpoint(host: remote.ip, port: remote.port), let key = SDESKeying.decodeBase64(remote.key),
              // The peer's address comes from the node-to-node connection, not from a client.
              case .success = media.connectTransport(id: pipe.transportId, remote: endpoint, clientKey: key, addressGranted: true)
        else {
            logger.error("cluster peer offered a media pipe that cannot be used", metadata: ["peer": "\(node)", "ip": "\(remote.ip)", "port": "\(remote.port)"])
            return false
        }
        apply(engine.remoteNodeReady(node, pipeTransportId: pipe.transportId))
        return true
    }

    /// The connection to `node` ended: forwards into its rooms hear Disconnected and stop
    /// crossing, its users' mirrors here leave their rooms (Dropped), and the pipe closes.
    func peerLost(node: String, generation: UInt64) {
        guard let pipe = peerPipes[node], pipe.generation == generation else { return }
        peerPipes[node] = nil
        let actions = engine.remoteNodeLost(node) + engine.dropRemoteMirrors(from: node)
        apply(actions.filter { if case .media = $0 { return false } else { return true } })
        // Sinks and sources of the pipe go before its socket does.
        apply(actions.filter { if case .media = $0 { return true } else { return false } })
        media.closeTransport(id: pipe.transportId)
    }

    /// `node` stayed unreachable past the lease: forwards into its rooms fail (1203).
    func peerGone(_ node: String) {
        peerInstances[node] = nil
        apply(engine.remoteNodeGone(node))
    }

    /// Whether this node still forwards into rooms on `node` (its connection is kept up).
    func wantsPeer(_ node: String) -> Bool { engine.hasRemoteTargets(on: node) }

    /// Whether this node serves `roomId` under `epoch` now, claiming it when nobody does.
    func servesRoom(_ roomId: String, epoch: Int64?) async -> RelayError? {
        guard let cluster else { return RelayError(.forwardNotSupported, "this relay is not part of a cluster") }
        if let epoch, cluster.epoch(of: roomId) == epoch { return nil }
        switch await cluster.route(roomId: roomId) {
        case .local:
            if let epoch, let current = cluster.epoch(of: roomId), current != epoch, engine.memberCount(roomId: roomId) != nil {
                return RelayError(.forwardResponse, "room '\(roomId)' was placed anew on node \(cluster.configuration.nodeId); start the forward again")
            }
            return nil
        case .elsewhere(let placement):
            return RelayError(.forwardNotSupported, "room '\(roomId)' moved to node \(placement.node.id); start the forward again")
        case .unavailable(let reason):
            return RelayError(.forwardResponse, reason)
        }
    }

    /// A peer asks whether its user may forward into a room here: the room must be served here,
    /// the target token valid for the room and user with the publish grant, and the room able to
    /// show the user.
    func peerVerify(_ message: PeerMessage, from node: String) async -> PeerMessage {
        var reply = PeerMessage(.verified)
        guard let targetRoomId = message.targetRoomId, let userId = message.userId, let sourceRoomId = message.sourceRoomId, let token = message.token else {
            reply.error = RelayError(.forwardInvalidArgument, "the verify request lacks a room, user or token")
            return reply
        }
        if let refusal = await servesRoom(targetRoomId, epoch: message.epoch) {
            reply.error = refusal
            return reply
        }
        switch verifier.verify(token, roomId: targetRoomId, userId: userId, nowSeconds: nowMs() / 1000).map(Self.grants(of:)) {
        case .failure(let error):
            reply.error = RelayError(.forwardInvalidToken, error.message)
        case .success(let grants) where !grants.publish:
            reply.error = RelayError(.forwardInvalidToken, "the target token has no publish grant")
        case .success(let grants):
            if let refusal = engine.remoteMirrorRefusal(node: node, sourceRoomId: sourceRoomId, targetRoomId: targetRoomId, userId: userId) {
                reply.error = refusal
            } else {
                reply.expiresAtMs = min(grants.expiresAt.milliseconds, grants.publishExpiresAt?.milliseconds ?? .max)
            }
        }
        return reply
    }

    /// A one-way message from a peer: a mirror to show or remove here, or the end of one of this
    /// node's mirrors there.
    func peerMessage(_ message: PeerMessage, from node: String) async {
        switch message.kind {
        case .mirror:
            guard let targetRoomId = message.targetRoomId, let userId = message.userId, let sourceRoomId = message.sourceRoomId,
                  let publications = message.publications, let pipe = peerPipes[node]
            else { return }
            var refusal = engine.memberCount(roomId: targetRoomId) == nil ? await servesRoom(targetRoomId, epoch: message.epoch) : nil
            if refusal == nil, let epoch = message.epoch, let current = cluster?.epoch(of: targetRoomId), current != epoch {
                refusal = RelayError(.forwardResponse, "room '\(targetRoomId)' was placed anew; start the forward again")
            }
            if refusal == nil, peerPipes[node] == pipe {
                let outcome = engine.applyRemoteMirror(
                    node: node, pipeTransportId: pipe.transportId, sourceRoomId: sourceRoomId, targetRoomId: targetRoomId, userId: userId,
                    role: message.role ?? .anchor, expiresAt: EngineTime(milliseconds: message.expiresAtMs ?? 0), publications: publications, now: now)
                apply(outcome.actions)
                if case .failure(let error) = outcome.result { refusal = error }
            }
            if let refusal {
                var ended = PeerMessage(.mirrorEnded)
                ended.sourceRoomId = sourceRoomId
                ended.targetRoomId = targetRoomId
                ended.userId = userId
                ended.error = refusal
                ended.leaveReason = .dropped
                peers?.outbox.send(ended, to: node)
            }
        case .unmirror:
            guard let targetRoomId = message.targetRoomId, let userId = message.userId else { return }
            apply(engine.removeRemoteMirror(
                node: node, targetRoomId: targetRoomId, userId: userId, leaveReason: message.leaveReason ?? .quit, unpublishReason: message.unpublishReason ?? .unpublish))
        case .mirrorEnded:
            guard let targetRoomId = message.targetRoomId, let userId = message.userId, let sourceRoomId = message.sourceRoomId else { return }
            let code = message.error?.code ?? .forwardResponse
            apply(engine.remoteMirrorEnded(
                RemoteMirrorEnd(node: node, sourceRoomId: sourceRoomId, targetRoomId: targetRoomId, userId: userId, forwardError: code, leaveReason: message.leaveReason ?? .dropped),
                now: now))
        case .linkEnded:
            remoteLinkEnded(message, from: node)
        case .invitation:
            guard let inviteId = message.inviteId, let state = message.invitationState else { return }
            apply(engine.remoteInvitationUpdate(RemoteInvitationUpdate(node: node, inviteId: inviteId, state: state, reason: message.reason, payload: message.payload), now: now))
            // Accepted with autoLink: the caller here starts the link, as on one node. Not
            // awaited here: the answer comes over the connection this message came on.
            if let (session, params) = engine.autoLink(forInvitation: inviteId), let cluster {
                Task { _ = await self.linkAcrossNodes(cluster, id: nil, link: params, session: session, answering: false) }
            }
        case .demand:
            guard let ssrc = message.ssrc, let wanted = message.wanted else { return }
            let demandActions = engine.remotePipeDemand(node: node, ssrc: ssrc, wanted: wanted)
            apply(demandActions)
        case .message:
            guard let roomId = message.targetRoomId, let event = message.message else { return }
            apply(engine.deliverRemoteMessage(RemoteMessage(node: node, roomId: roomId, recipientUserId: message.peerUserId, event: event)))
        default:
            return
        }
    }

    /// Sends `request` to the node serving `placement`'s room and returns that node's answer, with
    /// the remote end it names (the node, this node's pipe to it, the room's epoch). A node that
    /// does not answer, or an answer that is a refusal, is the error; `unreachable` is the code
    /// for the former.
    func ask(_ request: PeerMessage, at placement: RoomPlacement, unreachable: ErrorCode) async -> Result<(answer: PeerMessage, remote: RemoteTarget), RelayError> {
        guard let peers else { return .failure(RelayError(unreachable, "this relay is not part of a cluster")) }
        guard let answer = await peers.request(request, to: placement.node) else {
            return .failure(RelayError(unreachable, "room '\(placement.roomId)' lives on node \(placement.node.id), which cannot be reached now"))
        }
        if let error = answer.error { return .failure(error) }
        guard let pipe = peerPipes[placement.node.id] else {
            return .failure(RelayError(unreachable, "the connection to node \(placement.node.id) dropped while it answered"))
        }
        return .success((answer, RemoteTarget(node: placement.node.id, pipeTransportId: pipe.transportId, epoch: placement.epoch)))
    }

    /// Sends a mirror change to its node (dropped while the connection is down: the node drops
    /// the mirrors itself then, and every mirror is sent again when the connection is back).
    func sendRemoteMirror(_ update: RemoteMirrorUpdate) {
        var message = PeerMessage(update.publications == nil ? .unmirror : .mirror)
        message.sourceRoomId = update.sourceRoomId
        message.targetRoomId = update.targetRoomId
        message.userId = update.userId
        message.epoch = update.epoch
        message.role = update.role
        message.expiresAtMs = update.expiresAt.milliseconds
        message.publications = update.publications
        message.leaveReason = update.leaveReason
        message.unpublishReason = update.unpublishReason
        peers?.outbox.send(message, to: update.node)
    }

    /// Tells a peer that its user's mirror here ended.
    func sendRemoteMirrorEnded(_ end: RemoteMirrorEnd) {
        var message = PeerMessage(.mirrorEnded)
        message.sourceRoomId = end.sourceRoomId
        message.targetRoomId = end.targetRoomId
        message.userId = end.userId
        message.error = RelayError(end.forwardError, Self.endMessage(end.forwardError))
        message.leaveReason = end.leaveReason
        peers?.outbox.send(message, to: end.node)
    }

    static func endMessage(_ code: ErrorCode) -> String {
        switch code {
        case .forwardRemoteKicked: "a user with the same userId took the mirror's place, or the room server removed it"
        case .forwardResponse: "the target room was dismissed"
        case .forwardInvalidToken: "the target token expired"
        default: "the forward into this room ended"
        }
    }
}
