import AdminAPI
import Cluster
import Foundation
import Logging
import MediaPlane
import Protocol
import RoomEngine

/// The admin API's operations: the room server's view of the relay and its controls.
extension RelayCore {
    /// Every room with its counts.
    public func adminRooms() -> AdminResponse {
        let forwards = engine.forwardSnapshots()
        let links = engine.linkSnapshots()
        let rooms = engine.roomIds.map { roomId in
            let members = engine.snapshot(roomId: roomId) ?? []
            let real = members.filter { engine.forwardedFrom(roomId: roomId, userId: $0.userId) == nil }
            return AdminRoomSummary(
                roomId: roomId, users: real.count, forwardedUsers: members.count - real.count, visibleUsers: real.filter(\.visible).count,
                streams: real.reduce(0) { total, member in total + member.publications.values.filter { !$0.isEmpty }.count },
                forwardsOut: forwards.filter { $0.sourceRoomId == roomId }.count, forwardsIn: forwards.filter { $0.targetRoomId == roomId }.count,
                links: links.filter { $0.touches(roomId: roomId) }.count)
        }
        return .answer(AdminRoomList(rooms: rooms))
    }

    /// One room: users with role, visibility, streams and subscriptions; forwards and links
    /// into and out of it.
    public func adminRoom(_ roomId: String) async -> AdminResponse {
        guard engine.snapshot(roomId: roomId) != nil else { return .error(.notFound, "no room '\(roomId)'") }
        var users = adminUsers(of: roomId, servedHereOnly: false)
        // The room's node lists the viewers its edges serve as well, as they report them.
        let edges = engine.edges(of: roomId)
        let nodes = edges.isEmpty ? [] : await directory.liveNodes()
        for edge in edges {
            // An edge dialed this node: its address is the directory's.
            guard let node = await peers?.knownNode(edge) ?? nodes.first(where: { $0.id == edge }),
                case .roomUsers(let theirs)? = await peers?.request(.roomUsers(roomId), to: node)
            else { continue }
            for var user in theirs {
                user.nodeId = edge
                if let index = users.firstIndex(where: { $0.userId == user.userId && $0.nodeId == edge }) {
                    users[index] = user
                } else {
                    users.append(user)
                }
            }
        }
        guard engine.snapshot(roomId: roomId) != nil else { return .error(.notFound, "no room '\(roomId)'") }
        let forwards = engine.forwardSnapshots().filter { $0.sourceRoomId == roomId || $0.targetRoomId == roomId }.map { forward in
            AdminForward(
                roomId: forward.sourceRoomId, userId: forward.userId, targetRoomId: forward.targetRoomId,
                direction: forward.sourceRoomId == roomId ? .out : .in, state: forward.paused ? .paused : .forwarding,
                startedAt: forward.startedAt.milliseconds, firstKeyframeDelivered: forward.firstKeyframeDelivered)
        }
        let links = engine.linkSnapshots().filter { $0.touches(roomId: roomId) }.map { link in
            AdminLink(
                linkId: Int(clamping: link.id), roomId: link.callerRoomId, userId: link.callerUserId,
                peerRoomId: link.peerRoomId, peerUserId: link.peerUserId, state: .connected, startedAt: link.startedAt.milliseconds)
        }
        return .answer(AdminRoomDetail(roomId: roomId, users: users, forwards: forwards, links: links))
    }

    /// A room's users as the admin API shows them: with `servedHereOnly`, only those this node
    /// serves itself (no forwarded or linked users, no other node's members).
    func adminUsers(of roomId: String, servedHereOnly: Bool) -> [AdminUser] {
        let transports = media.latestReport().transports
        let members = (engine.snapshot(roomId: roomId) ?? []).filter {
            !servedHereOnly || ($0.heldBy == nil && engine.forwardedFrom(roomId: roomId, userId: $0.userId) == nil)
        }
        return members.map { member in
            AdminUser(
                userId: member.userId, role: member.role, visible: member.visible,
                forwardedFrom: engine.forwardedFrom(roomId: roomId, userId: member.userId),
                tokenExpiresAt: member.tokenExpiresAt.seconds,
                streams: StreamIndex.allCases.compactMap { index in
                    guard let tracks = member.publications[index], !tracks.isEmpty else { return nil }
                    return AdminStream(
                        streamIndex: index, mediaType: tracks.reduce(0) { $0 | $1.kind.mediaTypeBit },
                        tracks: tracks.map { AdminTrack(kind: $0.kind, ssrc: $0.ssrc, codec: $0.codec, payloadType: Int($0.payloadType)) })
                },
                subscriptions: member.subscriptions.map { subscription in
                    let transportId = subscription.sinks.first?.transportId
                    return AdminSubscription(
                        publisherUserId: subscription.publisherUserId, streamIndex: subscription.streamIndex, mediaType: Int(subscription.mediaType),
                        transportId: transportId,
                        bandwidthEstimate: transportId.flatMap { transports[$0]?.bandwidthEstimate }.map(BandwidthEstimateStats.init),
                        videoStreamType: subscription.videoStreamType, videoEnabled: subscription.videoEnabled)
                }, nodeId: member.heldBy)
        }
    }

    /// Dismisses a room: everyone in it hears onExitRoom (room dismissed); forwards and links
    /// into and out of it end.
    public func adminDismiss(roomId: String, reason: String?) -> AdminResponse {
        guard let members = engine.snapshot(roomId: roomId) else { return .error(.notFound, "no room '\(roomId)'") }
        let users = members.filter { engine.forwardedFrom(roomId: roomId, userId: $0.userId) == nil }.count
        let outcome = engine.dismiss(roomId: roomId, reason: reason, now: now)
        apply(outcome.actions)
        logger.notice("room dismissed by the admin API", metadata: ["room": "\(roomId)", "users": "\(users)"])
        return .answer(AdminDismissResult(roomId: roomId, usersRemoved: users))
    }

    /// Removes users from a room: each hears onExitRoom (kicked); the others see them leave.
    public func adminKick(roomId: String, userIds: [String]) -> AdminResponse {
        guard engine.snapshot(roomId: roomId) != nil else { return .error(.notFound, "no room '\(roomId)'") }
        var kicked: [String] = []
        var notFound: [String] = []
        for userId in userIds {
            let outcome = engine.kick(roomId: roomId, userId: userId, now: now)
            if case .success = outcome.result {
                kicked.append(userId)
                apply(outcome.actions)
                logger.notice("user removed by the admin API", metadata: ["room": "\(roomId)", "user": "\(userId)"])
            } else {
                notFound.append(userId)
            }
        }
        return .answer(AdminKickResult(roomId: roomId, kicked: kicked, notFound: notFound))
    }

    /// Stops a user's forwards out of a room and ends its links there.
    public func adminStopForwarding(roomId: String, userId: String) -> AdminResponse {
        guard engine.snapshot(roomId: roomId) != nil else { return .error(.notFound, "no room '\(roomId)'") }
        let forwards = engine.forwardSnapshots().filter { $0.sourceRoomId == roomId && $0.userId == userId }.count
        let links = engine.linkSnapshots().filter { $0.involves(roomId: roomId, userId: userId) }.count
        let outcome = engine.stopForwardsAndLinks(roomId: roomId, userId: userId, linkReason: "kicked", now: now)
        guard case .success = outcome.result else { return .error(.notFound, "no user '\(userId)' in room '\(roomId)'") }
        apply(outcome.actions)
        logger.notice(
            "forwards and links stopped by the admin API", metadata: ["room": "\(roomId)", "user": "\(userId)", "forwards": "\(forwards)", "links": "\(links)"])
        return .answer(AdminStopForwardingResult(roomId: roomId, userId: userId, forwardsStopped: forwards, linksEnded: links))
    }

    /// Relay-wide figures.
    public func adminStats() -> AdminResponse {
        let figures = self.overview()
        let counters = figures.media.counters
        let webhook = webhooks.stats
        let drops = DropReason.allCases.reduce(into: [String: Int]()) { $0[$1.label] = Int(clamping: counters.drops($1)) }
        let media = AdminMediaStats(
            // What the data plane itself holds, from its once-a-second snapshot: after every
            // client has gone these fall to zero with the control plane's counts, unless
            // something leaked between the two.
            transports: figures.media.transports.count, sources: figures.media.sources.count, sinks: figures.media.sinks.count,
            packetsIn: Int(clamping: counters.packetsIn), bytesIn: Int(clamping: counters.bytesIn),
            packetsOut: Int(clamping: counters.packetsOut), bytesOut: Int(clamping: counters.bytesOut), dropped: drops)
        let delivery = AdminWebhookStats(
            enqueued: Int(clamping: webhook.enqueued), delivered: Int(clamping: webhook.delivered),
            failedAttempts: Int(clamping: webhook.failedAttempts), givenUp: Int(clamping: webhook.givenUp),
            dropped: Int(clamping: webhook.dropped), queued: webhook.queued)
        let membership = clusterStatus.map { status in
            AdminClusterStats(
                nodeId: status.nodeId, serving: status.serving, leaseEpoch: status.leaseEpoch, rooms: status.rooms,
                leaseLosses: Int(clamping: status.leaseLosses), renewalFailures: Int(clamping: status.renewalFailures),
                redirects: Int(clamping: status.redirects), peers: status.peers, peerLosses: Int(clamping: status.peerLosses), edgeRooms: figures.edgeRooms,
                edges: figures.edgesFollowing)
        }
        return .answer(
            AdminStats(
                rooms: figures.rooms, users: figures.users, streams: figures.publications, subscriptions: figures.subscriptions,
                forwards: figures.forwardTargets, links: figures.links, connections: figures.connections, transports: figures.transports,
                udpPorts: figures.udpPorts, accepting: figures.accepting, media: media, webhooks: delivery, cluster: membership))
    }

    /// The cluster membership with the node-to-node connections; nil for a single node.
    nonisolated var clusterStatus: ClusterStatus? {
        guard var status = directory.status else { return nil }
        if let (peers, losses) = peers?.connectedPeers {
            status.peers = peers
            status.peerLosses = losses
        }
        return status
    }

    /// Webhook figures for /metrics.
    public var webhookStats: WebhookStats { webhooks.stats }
}
