public import Protocol

/// PK links across cluster nodes. Each node holds its half of the link: its own anchor as one
/// end, the other node's anchor as a remote end (no session here). Each node shows its own
/// anchor in the other's room (a remote mirror, as for a forward), so both anchors' streams
/// cross the pipe; either node ends the link and tells the other.
extension RoomEngine {
    /// The caller's side of a link to anchor `params.userId` in a room another node serves: the
    /// checks that need only this node (caller role and grant, its links, its room). Returns the
    /// caller's room.
    public func validateRemoteLink(session: SessionID, params: ConnectOtherRoomParams) -> Result<String, RelayError> {
        validateRemoteLink(session: session, params: params, peerNode: nil)
    }

    /// `peerNode`: the peer's node already answered, and may have shown the peer here already.
    func validateRemoteLink(session: SessionID, params: ConnectOtherRoomParams, peerNode: String?) -> Result<String, RelayError> {
        let localRoomId: String
        switch resolveLocalRoom(session: session, localRoomId: params.localRoomId) {
        case .failure(let error): return .failure(error)
        case .success(let found): localRoomId = found
        }
        guard case .success(let caller) = member(session, in: localRoomId) else {
            return .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'"))
        }
        if caller.role != .anchor { return .failure(RelayError(.callerIsAudience, "audience members cannot link; switchRole to anchor first")) }
        if !caller.grants.forward { return .failure(RelayError(.noForwardPermission, "the token for room '\(localRoomId)' has no forward grant")) }
        if params.roomId.isEmpty || params.userId.isEmpty { return .failure(RelayError(.linkInvalidParameter, "roomId and userId are required")) }
        if params.roomId == localRoomId { return .failure(RelayError(.linkInvalidParameter, "cannot link with your own room")) }
        let callerLinks = links.values.filter { $0.involves(roomId: localRoomId, userId: caller.userId) }
        if callerLinks.contains(where: { $0.involves(roomId: params.roomId, userId: params.userId) }) {
            return .failure(RelayError(.linkInvalidParameter, "already linked with '\(params.userId)' in '\(params.roomId)'"))
        }
        if callerLinks.count >= limits.maximumLinksPerUser {
            return .failure(RelayError(.linkLimitReached, "at most \(limits.maximumLinksPerUser) links per anchor"))
        }
        if forwards.contains(where: { $0.key.userId == caller.userId && $0.value.targets[params.roomId] != nil }) {
            return .failure(RelayError(.linkInvalidParameter, "'\(caller.userId)' is already forwarded into room '\(params.roomId)'"))
        }
        if let present = rooms[localRoomId]?.members[params.userId],
            !(peerNode != nil && present.remoteNode == peerNode && present.forwardedFrom == params.roomId)
        {
            return .failure(RelayError(.linkInvalidParameter, "'\(params.userId)' is already in room '\(localRoomId)' (a user or a forward with that id)"))
        }
        return .success(localRoomId)
    }

    /// The peer's side, on the node serving the peer's room: checks the peer and its room, and
    /// holds this node's half of the link (the peer hears onConnectOtherRoom and appears in the
    /// caller's room on the other node).
    public mutating func acceptRemoteLink(
        from remote: RemoteTarget, callerRoomId: String, callerUserId: String, peerRoomId: String, peerUserId: String, now: EngineTime
    ) -> EngineOutcome<EmptyResult> {
        func refuse(_ code: ErrorCode, _ message: String) -> EngineOutcome<EmptyResult> {
            EngineOutcome(result: .failure(RelayError(code, message)), actions: [])
        }
        guard RelayIdentifier.isValid(callerRoomId), RelayIdentifier.isValid(callerUserId) else {
            return refuse(.linkInvalidParameter, "the caller's room or user id is not valid")
        }
        guard let peerRoom = rooms[peerRoomId] else { return refuse(.targetRoomNotFound, "room '\(peerRoomId)' does not exist") }
        guard let peer = peerRoom.members[peerUserId], !peer.isMirror, peer.visible, peer.role == .anchor else {
            return refuse(.targetUserNotFound, "'\(peerUserId)' is not a visible anchor in room '\(peerRoomId)'")
        }
        if !peer.grants.forward { return refuse(.noForwardPermission, "the peer's token has no forward grant") }
        if links.values.contains(where: { $0.involves(roomId: peerRoomId, userId: peerUserId) && $0.involves(roomId: callerRoomId, userId: callerUserId) }) {
            return refuse(.linkInvalidParameter, "already linked with '\(peerUserId)' in '\(peerRoomId)'")
        }
        let peerRoomLinks = links.values.filter { $0.caller.roomId == peerRoomId || $0.peer.roomId == peerRoomId }.count
        if peerRoomLinks >= limits.maximumLinksPerRoom {
            return refuse(.targetRoomLinkLimit, "room '\(peerRoomId)' is at its limit of \(limits.maximumLinksPerRoom) links")
        }
        if forwards.contains(where: { $0.key.userId == peerUserId && $0.value.targets[callerRoomId] != nil }) {
            return refuse(.linkInvalidParameter, "'\(peerUserId)' is already forwarded into room '\(callerRoomId)'")
        }
        if peerRoom.members[callerUserId] != nil {
            return refuse(.linkInvalidParameter, "'\(callerUserId)' is already in room '\(peerRoomId)' (a user or a forward with that id)")
        }
        var actions: [EngineAction] = []
        let caller = LinkEnd(roomId: callerRoomId, userId: callerUserId, session: Self.remoteSession, remote: remote)
        let local = LinkEnd(roomId: peerRoomId, userId: peerUserId, session: peer.session)
        startLinkHalf(PKLink(id: allocateLinkId(), caller: caller, peer: local, startedAt: now), local: local, other: caller, into: &actions)
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// The caller's half, once the peer's node accepted: the caller hears onConnectOtherRoom and
    /// appears in the peer's room. Fails when the caller's side changed meanwhile.
    public mutating func createRemoteLink(
        session: SessionID, params: ConnectOtherRoomParams, remote: RemoteTarget, now: EngineTime
    ) -> EngineOutcome<ConnectOtherRoomEvent> {
        let localRoomId: String
        switch validateRemoteLink(session: session, params: params, peerNode: remote.node) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): localRoomId = found
        }
        guard let userId = userId(of: session, roomId: localRoomId) else {
            return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'")), actions: [])
        }
        var actions: [EngineAction] = []
        let caller = LinkEnd(roomId: localRoomId, userId: userId, session: session)
        let peer = LinkEnd(roomId: params.roomId, userId: params.userId, session: Self.remoteSession, remote: remote)
        let event = startLinkHalf(PKLink(id: allocateLinkId(), caller: caller, peer: peer, startedAt: now), local: caller, other: peer, into: &actions)
        return EngineOutcome(result: .success(event), actions: actions)
    }

    @discardableResult
    mutating func startLinkHalf(_ link: PKLink, local: LinkEnd, other: LinkEnd, into actions: inout [EngineAction]) -> ConnectOtherRoomEvent {
        links[link.id] = link
        actions.append(.domain(.linkConnected(link.snapshot)))
        reconcileMirror(targetRoomId: other.roomId, userId: local.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
        let event = ConnectOtherRoomEvent(roomId: local.roomId, peerRoomId: other.roomId, peerUserId: other.userId, errorCode: 0, message: "linked")
        actions.append(.event(local.session, .connectOtherRoom(event)))
        return event
    }

    mutating func allocateLinkId() -> UInt64 {
        defer { nextLinkId += 1 }
        return nextLinkId
    }

    /// The other node ended a link with its anchor: this node's anchor hears `end.reason`.
    public mutating func remoteLinkEnded(_ end: RemoteLinkEnd) -> [EngineAction] {
        func matches(_ mine: LinkEnd, _ theirs: LinkEnd) -> Bool {
            guard mine.remote == nil, mine.roomId == end.anchorRoomId, mine.userId == end.anchorUserId else { return false }
            return theirs.remote?.node == end.node && theirs.roomId == end.peerRoomId && theirs.userId == end.peerUserId
        }
        guard let link = links.values.first(where: { matches($0.caller, $0.peer) || matches($0.peer, $0.caller) }) else { return [] }
        var actions: [EngineAction] = []
        endLink(link.id, reason: end.reason, notifyRemote: false, into: &actions)
        return actions
    }

    /// Ends every link with an anchor on `node` (its connection was lost): this node's anchors
    /// hear onDisconnectOtherRoom with `peerUnreachable`.
    mutating func endRemoteLinks(on node: String, into actions: inout [EngineAction]) {
        for link in links.values.sorted(by: { $0.id < $1.id }) where link.caller.remote?.node == node || link.peer.remote?.node == node {
            endLink(link.id, reason: "peerUnreachable", notifyRemote: false, into: &actions)
        }
    }
}

extension RoomEngine {
    /// The node serving `roomId` when it is linked here from another node.
    func remoteNode(ofLinkedRoom roomId: String) -> String? {
        for link in links.values {
            if link.caller.roomId == roomId, let remote = link.caller.remote { return remote.node }
            if link.peer.roomId == roomId, let remote = link.peer.remote { return remote.node }
        }
        return nil
    }

    /// A message from `node` for members of a room here: a room message to each member (mirrors
    /// aside), or a user message to its recipient. The room's origin passes a room message on to
    /// the room's edges (but the one it came from), and to the rooms linked with it when an
    /// edge's member sent it `toLinkedRooms`; a user message to the node that holds its recipient.
    public mutating func deliverRemoteMessage(_ message: RemoteMessage, from node: String) -> [EngineAction] {
        guard let room = rooms[message.roomId] else { return [] }
        let isOrigin = edgeOrigins[message.roomId] == nil
        if let recipient = message.recipientUserId {
            guard let member = room.members[recipient] else { return [] }
            if !member.isMirror { return [.event(member.session, .userMessageReceived(message.event))] }
            // At the origin, a user message from an edge for a member held elsewhere goes on there.
            guard message.withinRoom, isOrigin, let holder = member.remoteNode, holder != node else { return [] }
            var event = message.event
            event.roomId = member.isReplica ? message.roomId : member.forwardedFrom ?? message.roomId
            return [
                .notify(.message(RemoteMessage(node: holder, roomId: event.roomId, recipientUserId: recipient, event: event, withinRoom: member.isReplica)))
            ]
        }
        var actions = room.orderedMembers.filter { !$0.isMirror && $0.userId != message.event.userId }.map {
            EngineAction.event($0.session, .roomMessageReceived(message.event))
        }
        if isOrigin {
            // Not back to the edge it came from; a linked room's message goes to every edge, the
            // linked room's node included when it is an edge here too.
            for edge in (replicaTargets[message.roomId] ?? [:]).keys.sorted() where !(message.withinRoom && edge == node) {
                var copy = message
                copy.node = edge
                copy.withinRoom = true
                copy.toLinkedRooms = nil
                actions.append(.notify(.message(copy)))
            }
            if message.withinRoom, message.toLinkedRooms == true {
                deliverToLinkedRooms(message.event, of: message.roomId, except: message.event.userId, into: &actions)
            }
        }
        return actions
    }
}
