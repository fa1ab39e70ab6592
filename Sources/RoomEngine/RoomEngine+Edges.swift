public import Protocol

/// Edge fan-out: one room served by several nodes. Its **origin** holds the room: its
/// publishers, forwards and links, and the authority over who is in it. An **edge** serves some
/// of its viewers and holds the origin's visible members as *replicas*, whose tracks arrive over
/// the media pipe exactly as a forwarded user's do: one copy per watched track and layer, asked
/// for by the edge's own subscriptions (``RoomEngine/bind(sink:to:switching:into:)``).
///
/// Each side replicates what its own visible members do to the other (the origin to every edge
/// but the one a member came from), from the one place the room's members hear it
/// (``RoomEngine/broadcast(_:in:except:into:)``), and with the reasons they heard: so a viewer
/// hears the same joins, publishes, unpublishes and leaves on an edge as on the origin.
extension RoomEngine {
    // MARK: An edge

    /// Serves `roomId` here as an edge of `origin`, before its first viewer here joins. While the
    /// pipe to the origin is connected the edge follows the room there (and again each time it
    /// reconnects). Refused when this node holds the room itself, or serves it for another origin.
    public mutating func serveAsEdge(roomId: String, origin: EdgeOrigin) -> EngineOutcome<EmptyResult> {
        if let current = edgeOrigins[roomId] {
            guard current != origin else { return EngineOutcome(result: .success(EmptyResult()), actions: []) }
            return EngineOutcome(
                result: .failure(RelayError(.wrongState, "room '\(roomId)' is served here for node \(current.node), not \(origin.node)")), actions: [])
        }
        if rooms[roomId] != nil {
            return EngineOutcome(result: .failure(RelayError(.wrongState, "room '\(roomId)' is held on this node, not at an origin elsewhere")), actions: [])
        }
        edgeOrigins[roomId] = origin
        var actions: [EngineAction] = []
        if let pipe = pipeTransports[origin.node] { follow(roomId: roomId, origin: origin, pipeTransportId: pipe, into: &actions) }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Whether this node holds `roomId` itself: it exists here and is not served for another node
    /// as an edge (links, invitations and forwards into it go to its origin).
    public func holdsRoom(_ roomId: String) -> Bool { rooms[roomId] != nil && edgeOrigins[roomId] == nil }

    /// The origin of `roomId` when this node serves it as an edge.
    public func edgeOrigin(of roomId: String) -> EdgeOrigin? { edgeOrigins[roomId] }

    /// How many rooms this node serves as an edge, and how many edges follow the rooms it holds.
    public var edgeTotals: (edgeRooms: Int, edgesFollowing: Int) {
        let following = replicaTargets.reduce(0) { total, entry in edgeOrigins[entry.key] == nil ? total + entry.value.count : total }
        return (edgeOrigins.count, following)
    }

    /// The rooms this node serves as an edge, sorted.
    public var edgeRoomIds: [String] { edgeOrigins.keys.sorted() }

    /// The audience members of `roomId` this node serves itself (not the other nodes' replicas).
    public func localAudienceCount(roomId: String) -> Int {
        rooms[roomId]?.members.values.count { !$0.isMirror && $0.role == .audience } ?? 0
    }

    /// The nodes serving viewers of `roomId` as its edges, when this node is its origin, sorted.
    public func edges(of roomId: String) -> [String] {
        guard edgeOrigins[roomId] == nil else { return [] }
        return (replicaTargets[roomId] ?? [:]).keys.sorted()
    }

    /// Asks the origin for the room's members and replicates the visible viewers here to it.
    private mutating func follow(roomId: String, origin: EdgeOrigin, pipeTransportId: Int, into actions: inout [EngineAction]) {
        replicaTargets[roomId, default: [:]][origin.node] = RemoteTarget(node: origin.node, pipeTransportId: pipeTransportId, epoch: origin.epoch)
        actions.append(.notify(.follow(EdgeFollow(node: origin.node, roomId: roomId, epoch: origin.epoch))))
        for member in rooms[roomId]?.orderedMembers ?? [] where member.visible && !member.isMirror {
            replicate(roomId: roomId, userId: member.userId, to: origin.node, leaving: nil, unpublishReason: .other, into: &actions)
        }
    }

    /// The last viewer here left a room served as an edge: the origin stops replicating it here,
    /// and the origin's members, which nobody here hears any more, go without a word.
    private mutating func leaveEdgeRoom(_ roomId: String, origin: EdgeOrigin, into actions: inout [EngineAction]) {
        if replicaTargets[roomId]?[origin.node] != nil {
            actions.append(.notify(.unfollow(EdgeFollow(node: origin.node, roomId: roomId, epoch: origin.epoch))))
        }
        stopReplicating(roomId: roomId, to: nil, into: &actions)
        for member in (rooms[roomId]?.orderedMembers ?? []).reversed() where member.isReplica {
            removeMember(roomId: roomId, userId: member.userId, leaveReason: .quit, unpublishReason: .other, exit: nil, into: &actions)
        }
        edgeOrigins[roomId] = nil
    }

    /// Ends a room served here as an edge: the origin's members go, then each viewer here leaves
    /// with `exit`, as the origin's own members did (nothing is said to the origin).
    mutating func endEdgeRoom(
        _ roomId: String, exit: (reason: ExitRoomReason, code: ErrorCode, message: String), departure: DepartureReason,
        into actions: inout [EngineAction]
    ) {
        stopReplicating(roomId: roomId, to: nil, into: &actions)
        for member in (rooms[roomId]?.orderedMembers ?? []).reversed() where member.isMirror {
            removeMember(roomId: roomId, userId: member.userId, leaveReason: .kickedByAdmin, unpublishReason: .other, exit: nil, into: &actions)
        }
        for member in (rooms[roomId]?.orderedMembers ?? []).reversed() where !member.isMirror {
            removeMember(
                roomId: roomId, userId: member.userId, leaveReason: .kickedByAdmin, unpublishReason: .other, exit: exit, departure: departure, into: &actions)
        }
        edgeOrigins[roomId] = nil
    }

    /// Lets go of `roomId` when it is served here as an edge and no viewer here is in it (a join
    /// it was taken up for was refused).
    public mutating func releaseEdgeRoomIfUnwatched(_ roomId: String) -> [EngineAction] {
        var actions: [EngineAction] = []
        releaseEdgeRoomIfUnwatched(roomId, into: &actions)
        return actions
    }

    /// Whether the member just removed from `roomId` was the last viewer of a room served here as
    /// an edge: then the edge lets go of it.
    mutating func releaseEdgeRoomIfUnwatched(_ roomId: String, into actions: inout [EngineAction]) {
        guard let origin = edgeOrigins[roomId], rooms[roomId]?.members.values.allSatisfy(\.isMirror) ?? true else { return }
        leaveEdgeRoom(roomId, origin: origin, into: &actions)
    }

    // MARK: The origin

    /// An edge follows a room held here: every visible member is replicated to it from now on,
    /// in joining order. A room nobody is in yet is made, so that it stays placed here while
    /// edges serve its viewers.
    mutating func edgeFollows(_ follow: EdgeFollow, from node: String) -> [EngineAction] {
        guard let pipe = pipeTransports[node], edgeOrigins[follow.roomId] == nil else { return [] }
        var actions: [EngineAction] = []
        if rooms[follow.roomId] == nil {
            actions.append(.domain(.roomCreated(roomId: follow.roomId)))
            rooms[follow.roomId] = Room(id: follow.roomId)
        }
        replicaTargets[follow.roomId, default: [:]][node] = RemoteTarget(node: node, pipeTransportId: pipe, epoch: follow.epoch)
        for member in rooms[follow.roomId]!.orderedMembers where member.visible {
            replicate(roomId: follow.roomId, userId: member.userId, to: node, leaving: nil, unpublishReason: .other, into: &actions)
        }
        return actions
    }

    /// An edge's last viewer of a room held here left: nothing more is replicated there, and a
    /// room left empty ends.
    mutating func edgeUnfollows(_ follow: EdgeFollow, from node: String) -> [EngineAction] {
        guard edgeOrigins[follow.roomId] == nil, replicaTargets[follow.roomId]?[node] != nil else { return [] }
        var actions: [EngineAction] = []
        stopReplicating(roomId: follow.roomId, to: node, into: &actions)
        dropReplicas(from: node, in: follow.roomId, into: &actions)
        endRoomIfEmpty(follow.roomId, into: &actions)
        return actions
    }

    /// A room held here is dismissed: its edges hear it end, with the exit its members heard.
    mutating func endEdges(of roomId: String, exit: (reason: ExitRoomReason, code: ErrorCode, message: String), into actions: inout [EngineAction]) {
        guard edgeOrigins[roomId] == nil, let targets = replicaTargets[roomId] else { return }
        for node in targets.keys.sorted() {
            actions.append(
                .notify(.edgeRoomEnded(EdgeRoomEnd(node: node, roomId: roomId, reason: exit.reason, code: exit.code.rawValue, message: exit.message))))
        }
        stopReplicating(roomId: roomId, to: nil, into: &actions)
    }

    /// This node shuts down: the edges of every room held here hear the rooms end with the exit
    /// the rooms' own members hear (their viewers there would otherwise wait for the lease).
    public mutating func endEdges(reason: ExitRoomReason, code: ErrorCode, message: String) -> [EngineAction] {
        var actions: [EngineAction] = []
        for roomId in replicaTargets.keys.sorted() { endEdges(of: roomId, exit: (reason, code, message), into: &actions) }
        return actions
    }

    /// The origin of a room served here ended it: its viewers here leave as its members there did.
    mutating func edgeRoomEnded(_ end: EdgeRoomEnd, from node: String) -> [EngineAction] {
        guard edgeOrigins[end.roomId]?.node == node else { return [] }
        var actions: [EngineAction] = []
        endEdgeRoom(end.roomId, exit: (end.reason, ErrorCode(end.code), end.message), departure: .roomDismissed, into: &actions)
        return actions
    }

    /// A room with no member left ends, unless it is held here and edges still serve its viewers.
    /// A room served here as an edge goes without a word: it ends at its origin.
    mutating func endRoomIfEmpty(_ roomId: String, into actions: inout [EngineAction]) {
        guard rooms[roomId]?.members.isEmpty == true, edgeOrigins[roomId] != nil || replicaTargets[roomId]?.isEmpty ?? true else { return }
        rooms[roomId] = nil
        if edgeOrigins[roomId] == nil { actions.append(.domain(.roomEnded(roomId: roomId))) }
    }

    // MARK: Both sides

    /// Replicates what `event` says about a member of `roomId` to each other node serving it.
    mutating func replicate(_ event: ServerEvent, in roomId: String, into actions: inout [EngineAction]) {
        let userId: String
        var leaving: LeaveReason?
        var unpublishReason = UnpublishReason.other
        switch event {
        case .userJoined(let joined): userId = joined.userId
        case .userPublishStream(let published): userId = published.userId
        case .userUnpublishStream(let unpublished):
            userId = unpublished.userId
            unpublishReason = unpublished.reason
        case .userLeave(let left):
            userId = left.userId
            leaving = left.reason
        case .roomMessageReceived(let message):
            replicateMessage(message, in: roomId, toLinkedRooms: nil, into: &actions)
            return
        default: return
        }
        for node in (replicaTargets[roomId] ?? [:]).keys.sorted() {
            replicate(roomId: roomId, userId: userId, to: node, leaving: leaving, unpublishReason: unpublishReason, into: &actions)
        }
    }

    /// Sends a room message of `roomId` to each other node serving it, which passes it to its
    /// members (the origin to its other edges as well); `toLinkedRooms`, from an edge, asks the
    /// origin to pass it on to the rooms linked with this one too.
    mutating func replicateMessage(_ message: MessageReceivedEvent, in roomId: String, toLinkedRooms: Bool?, into actions: inout [EngineAction]) {
        for node in (replicaTargets[roomId] ?? [:]).keys.sorted() {
            let copy = RemoteMessage(node: node, roomId: roomId, recipientUserId: nil, event: message, withinRoom: true, toLinkedRooms: toLinkedRooms)
            actions.append(.notify(.message(copy)))
        }
    }

    /// Makes `userId`'s replica on `node` match the member here: present with its streams while
    /// it is visible here (and not a replica from that node), gone once it leaves (`leaving`).
    /// Each track shown there crosses the pipe once per node, however many rooms show it there.
    mutating func replicate(
        roomId: String, userId: String, to node: String, leaving: LeaveReason?, unpublishReason: UnpublishReason, into actions: inout [EngineAction]
    ) {
        guard let target = replicaTargets[roomId]?[node] else { return }
        let key = EdgeReplicaKey(node: node, roomId: roomId, userId: userId)
        let previous = edgeReplicas[key]
        guard leaving == nil, let member = rooms[roomId]?.members[userId], member.visible, !(member.isReplica && member.remoteNode == node) else {
            guard let previous else { return }
            edgeReplicas[key] = nil
            actions.append(
                .notify(
                    .replica(
                        EdgeReplicaUpdate(
                            node: node, epoch: target.epoch, roomId: roomId, userId: userId, role: .audience, forwardedFrom: nil, publications: nil,
                            leaveReason: leaving ?? .quit, unpublishReason: unpublishReason))))
            for trackId in previous.sorted() { releasePipeSink(PipeSinkKey(node: node, trackId: trackId), into: &actions) }
            return
        }
        var publications: [RemotePublication] = []
        var trackIds = Set<UInt32>()
        for index in StreamIndex.allCases {
            guard let publication = member.publications[index] else { continue }
            publications.append(export(publication, to: target, exported: previous, trackIds: &trackIds, into: &actions))
        }
        edgeReplicas[key] = trackIds
        actions.append(
            .notify(
                .replica(
                    EdgeReplicaUpdate(
                        node: node, epoch: target.epoch, roomId: roomId, userId: userId, role: member.role, forwardedFrom: member.forwardedFrom,
                        publications: publications, leaveReason: .quit, unpublishReason: unpublishReason))))
        for trackId in (previous ?? []).subtracting(trackIds).sorted() { releasePipeSink(PipeSinkKey(node: node, trackId: trackId), into: &actions) }
    }

    /// Stops replicating `roomId` to `node` (to every node when nil): the pipe sinks its replicas
    /// held are let go, without a word to that node.
    mutating func stopReplicating(roomId: String, to node: String?, into actions: inout [EngineAction]) {
        for key in edgeReplicas.keys.sorted(by: { ($0.node, $0.userId) < ($1.node, $1.userId) })
        where key.roomId == roomId && (node == nil || key.node == node) {
            for trackId in edgeReplicas.removeValue(forKey: key)!.sorted() {
                releasePipeSink(PipeSinkKey(node: key.node, trackId: trackId), into: &actions)
            }
        }
        if let node {
            replicaTargets[roomId]?[node] = nil
            if replicaTargets[roomId]?.isEmpty == true { replicaTargets[roomId] = nil }
        } else {
            replicaTargets[roomId] = nil
        }
    }

    /// The members `node` replicated into `roomId` leave it, as a user whose connection dropped.
    private mutating func dropReplicas(from node: String, in roomId: String, into actions: inout [EngineAction]) {
        for member in (rooms[roomId]?.orderedMembers ?? []).reversed() where member.isReplica && member.remoteNode == node {
            removeMember(roomId: roomId, userId: member.userId, leaveReason: .dropped, unpublishReason: .other, exit: nil, into: &actions)
        }
    }

    /// Shows, updates or removes a member another node serving `update.roomId` replicated here:
    /// only from the room's origin when this node is its edge, only from an edge that follows
    /// it when this node holds it. A user here with the same userId keeps its place (the
    /// replica is not shown).
    mutating func applyReplica(_ update: EdgeReplicaUpdate, from node: String, now: EngineTime) -> [EngineAction] {
        let roomId = update.roomId
        let fromOrigin = edgeOrigins[roomId]?.node == node
        guard fromOrigin || (edgeOrigins[roomId] == nil && replicaTargets[roomId]?[node] != nil), let pipe = pipeTransports[node] else { return [] }
        var actions: [EngineAction] = []
        let current = rooms[roomId]?.members[update.userId]
        guard let publications = update.publications else {
            if current?.isReplica == true, current?.remoteNode == node {
                removeMember(
                    roomId: roomId, userId: update.userId, leaveReason: update.leaveReason, unpublishReason: update.unpublishReason, exit: nil,
                    into: &actions)
            }
            return actions
        }
        if let current, !(current.isReplica && current.remoteNode == node) { return [] }
        if current == nil {
            var replica = Member(
                session: Self.remoteSession, userId: update.userId, role: update.role, visible: true,
                config: RoomConfig(autoPublish: false, autoSubscribeAudio: false, autoSubscribeVideo: false),
                grants: TokenGrants(publish: true, subscribe: false, forward: false, hidden: false, expiresAt: EngineTime(milliseconds: .max)))
            replica.isReplica = true
            replica.forwardedFrom = update.forwardedFrom
            replica.remoteNode = node
            if rooms[roomId] == nil, !fromOrigin { actions.append(.domain(.roomCreated(roomId: roomId))) }
            var room = rooms[roomId] ?? Room(id: roomId)
            room.insert(replica)
            rooms[roomId] = room
            broadcast(
                .userJoined(UserJoinedEvent(roomId: roomId, userId: update.userId, role: update.role, forwardedFrom: update.forwardedFrom)), in: roomId,
                except: update.userId, into: &actions)
        }
        rooms[roomId]!.members[update.userId]!.role = update.role
        remoteMirrorStreams[ForwardKey(roomId: roomId, userId: update.userId)] = RemoteMirrorStreams(pipeTransportId: pipe, publications: publications)
        showRemoteStreams(targetRoomId: roomId, userId: update.userId, now: now, unpublishReason: update.unpublishReason, into: &actions)
        return actions
    }

    /// The pipe to `node` was lost: nothing more is replicated there (an edge follows again
    /// when it reconnects; an origin waits to be followed again).
    mutating func stopReplicating(to node: String, into actions: inout [EngineAction]) {
        for roomId in replicaTargets.keys.sorted() where replicaTargets[roomId]?[node] != nil {
            stopReplicating(roomId: roomId, to: node, into: &actions)
        }
    }

    /// The pipe to `node` is up: each room served here as its edge follows it again.
    mutating func followAgain(origin node: String, pipeTransportId: Int, into actions: inout [EngineAction]) {
        for (roomId, origin) in edgeOrigins.sorted(by: { $0.key < $1.key }) where origin.node == node {
            follow(roomId: roomId, origin: origin, pipeTransportId: pipeTransportId, into: &actions)
        }
    }

    /// The rooms served here as edges of `node`, gone for good (it stayed away past its lease,
    /// or came back as a new process): their viewers leave as for a dismissed room.
    mutating func endEdgeRooms(of node: String, into actions: inout [EngineAction]) {
        for (roomId, origin) in edgeOrigins.sorted(by: { $0.key < $1.key }) where origin.node == node {
            endEdgeRoom(roomId, exit: (.roomDismissed, .roomDismissed, "the room's origin node is gone"), departure: .roomDismissed, into: &actions)
        }
    }
}
