import Auth
import Cluster
import Foundation
import Logging
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
        if let old = peerState[node] { peerLost(node: node, generation: old.generation) }
        switch media.openTransport(profile: .aeadAES128GCM, group: nil, receiving: false) {
        case .success(let opened):
            // A pipe serves rooms on every shard: it goes to the least loaded one.
            media.place(transports: [opened.id], group: nil, receiving: [])
            peerState.open(node: node, generation: generation, transportId: opened.id)
            return PipeOffer(ip: media.announcedAddress, port: opened.port, key: SDESKeying.encodeBase64(opened.relayKey ?? []))
        case .failure(let error):
            logger.error("could not open the media pipe to a cluster peer", metadata: ["peer": "\(node)", "error": "\(error)"])
            return nil
        }
    }

    /// Both hellos are through: the pipe connects to the peer's end, and forwards into rooms
    /// there resume on it (their mirrors are sent again on the connection, which takes messages
    /// by now). A peer that is a new process under a known node id lost its rooms: forwards into
    /// them fail first.
    func peerReady(node: String, generation: UInt64, remote: PipeOffer, instance: String) -> Bool {
        guard let (pipe, restarted) = peerState.ready(node: node, generation: generation, instance: instance) else { return false }
        if restarted {
            logger.warning("cluster peer restarted: forwards into its rooms end", metadata: ["peer": "\(node)"])
            apply(engine.remoteNodeGone(node))
        }
        guard let endpoint = PeerEndpoint(host: remote.ip, port: remote.port), let key = SDESKeying.decodeBase64(remote.key),
            // The peer's address comes from the node-to-node connection, not from a client.
            case .success = media.connectTransport(id: pipe.transportId, remote: endpoint, clientKey: key, addressGranted: true)
        else {
            logger.error(
                "cluster peer offered a media pipe that cannot be used", metadata: ["peer": "\(node)", "ip": "\(remote.ip)", "port": "\(remote.port)"])
            return false
        }
        apply(engine.remoteNodeReady(node, pipeTransportId: pipe.transportId))
        return true
    }

    /// The connection to `node` ended: forwards into its rooms hear Disconnected and stop
    /// crossing, its users' mirrors here leave their rooms (Dropped), and the pipe closes once
    /// its sinks and sources are gone.
    func peerLost(node: String, generation: UInt64) {
        guard let pipe = peerState.lose(node: node, generation: generation) else { return }
        apply(engine.remoteNodeLost(node, pipeTransportId: pipe.transportId))
    }

    /// `node` stayed unreachable past the lease: forwards into its rooms fail (1203).
    func peerGone(_ node: String) {
        peerState.forget(node: node)
        apply(engine.remoteNodeGone(node))
    }

    /// Whether this node still forwards into rooms on `node` (its connection is kept up).
    func wantsPeer(_ node: String) -> Bool { engine.hasRemoteTargets(on: node) || engine.edgeRoomIds.contains { engine.edgeOrigin(of: $0)?.node == node } }

    /// Whether this node serves `roomId` under `epoch` now, claiming it when nobody does.
    func servesRoom(_ roomId: String, epoch: Int64?) async -> RelayError? {
        guard peers != nil else { return RelayError(.forwardNotSupported, "this relay is not part of a cluster") }
        if let epoch, directory.epoch(of: roomId) == epoch { return nil }
        switch await directory.route(roomId: roomId) {
        case .local:
            if let epoch, let current = directory.epoch(of: roomId), current != epoch, engine.holdsRoom(roomId) {
                return RelayError(.forwardResponse, "room '\(roomId)' was placed anew on node \(directory.nodeId); start the forward again")
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
    func peerVerify(_ request: ForwardVerification, from node: String) async -> PeerReply {
        if let refusal = await servesRoom(request.targetRoomId, epoch: request.epoch) { return .refused(refusal) }
        switch verifier.verify(request.token, roomId: request.targetRoomId, userId: request.userId, nowSeconds: nowMs() / 1000).map(Self.grants(of:)) {
        case .failure(let error):
            return .refused(RelayError(.forwardInvalidToken, error.message))
        case .success(let grants) where !grants.publish:
            return .refused(RelayError(.forwardInvalidToken, "the target token has no publish grant"))
        case .success(let grants):
            if let refusal = engine.remoteMirrorRefusal(
                node: node, sourceRoomId: request.sourceRoomId, targetRoomId: request.targetRoomId, userId: request.userId)
            {
                return .refused(refusal)
            }
            return .verified(expiresAtMs: min(grants.expiresAt.milliseconds, grants.publishExpiresAt?.milliseconds ?? .max))
        }
    }

    /// A notice from a peer for the engine. A mirror is shown only in a room served here under
    /// the epoch the peer found (a room nobody serves is claimed), else it is refused at once.
    /// An invitation accepted with autoLink whose caller is here starts the link.
    func peerNotice(_ notice: NodeNotice, from node: String) async {
        // The peer's anchor of a link this node asked for, shown before the answer arrived:
        // shown once the caller has heard the answer (linkAcrossNodes).
        if peerState.hold(notice, from: node) { return }
        if case .mirror(let update) = notice, update.publications != nil {
            guard let pipe = peerState[node] else { return }
            var refusal = !engine.holdsRoom(update.targetRoomId) ? await servesRoom(update.targetRoomId, epoch: update.epoch) : nil
            if refusal == nil, let current = directory.epoch(of: update.targetRoomId), current != update.epoch {
                refusal = RelayError(.forwardResponse, "room '\(update.targetRoomId)' was placed anew; start the forward again")
            }
            if let refusal {
                apply([engine.refuseRemoteMirror(update, from: node, because: refusal)])
                return
            }
            // The connection it came on went while the directory answered: the new one brings
            // every mirror again.
            guard peerState[node] == pipe else { return }
        }
        if case .follow(let follow) = notice {
            guard let pipe = peerState[node] else { return }
            if let refusal = await servesRoom(follow.roomId, epoch: follow.epoch) {
                // The edge's viewers join again through the room server, which finds the room's node now.
                notify(
                    .edgeRoomEnded(
                        EdgeRoomEnd(
                            node: node, roomId: follow.roomId, reason: .roomDismissed, code: ErrorCode.roomDismissed.rawValue,
                            message: "the room is not held on node \(directory.nodeId) any more: \(refusal.message)")))
                return
            }
            guard peerState[node] == pipe else { return }
        }
        apply(engine.receive(notice, from: node, now: now))
        // Accepted with autoLink: the caller here starts the link, as on one node. Not awaited
        // here: the answer comes over the connection this notice came on.
        if case .invitation(let update) = notice, let (session, params) = engine.autoLink(forInvitation: update.inviteId) {
            Task { _ = await self.linkAcrossNodes(id: nil, link: params, session: session, answering: false) }
        }
    }

    /// Sends `request` to the node serving `placement`'s room and returns that node's answer, with
    /// the remote end it names (the node, this node's pipe to it, the room's epoch). A node that
    /// does not answer, or an answer that is a refusal, is the error; `unreachable` is the code
    /// for the former.
    func ask(_ request: PeerRequest, at placement: RoomPlacement, unreachable: ErrorCode) async -> Result<(answer: PeerReply, remote: RemoteTarget), RelayError>
    {
        guard let peers else { return .failure(RelayError(unreachable, "this relay is not part of a cluster")) }
        guard let answer = await peers.request(request, to: placement.node) else {
            return .failure(RelayError(unreachable, "room '\(placement.roomId)' lives on node \(placement.node.id), which cannot be reached now"))
        }
        if case .refused(let error) = answer { return .failure(error) }
        guard let pipe = peerState[placement.node.id] else {
            return .failure(RelayError(unreachable, "the connection to node \(placement.node.id) dropped while it answered"))
        }
        return .success((answer, RemoteTarget(node: placement.node.id, pipeTransportId: pipe.transportId, epoch: placement.epoch)))
    }

    /// Sends a notice to its node (dropped while the connection is down: that node drops the
    /// mirrors itself then, and every mirror is sent again when the connection is back).
    func notify(_ notice: NodeNotice) {
        peers?.notify(notice)
    }
}
