public import Protocol

/// Two-way PK links (TRTC's connectOtherRoom model).
///
/// Authorisation rule: both anchors' tokens (for their own rooms) must carry the forward grant.
/// The caller's grant authorises the request; the peer's grant is its standing consent to be
/// linked (apps that want an explicit yes use invite/accept first).
extension RoomEngine {
    /// Links the caller (an anchor) with anchor `params.userId` in room `params.roomId`.
    public mutating func connectOtherRoom(session: SessionID, params: ConnectOtherRoomParams, now: EngineTime) -> EngineOutcome<ConnectOtherRoomEvent> {
        switch validateLink(session: session, params: params) {
        case .failure(let error):
            var actions: [EngineAction] = []
            if let local = try? resolveLocalRoom(session: session, localRoomId: params.localRoomId).get() {
                actions.append(
                    .event(
                        session,
                        .connectOtherRoom(
                            ConnectOtherRoomEvent(
                                roomId: local, peerRoomId: params.roomId, peerUserId: params.userId, errorCode: error.code.rawValue, message: error.message))))
            }
            return EngineOutcome(result: .failure(error), actions: actions)
        case .success(let (caller, peer)):
            var actions: [EngineAction] = []
            let event = createLink(caller: caller, peer: peer, now: now, into: &actions)
            return EngineOutcome(result: .success(event), actions: actions)
        }
    }

    /// Ends the caller's links (in one of its rooms, or all). Both anchors hear onDisconnectOtherRoom.
    public mutating func disconnectOtherRoom(session: SessionID, localRoomId: String?, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let roomIds: [String]
        if let localRoomId {
            guard isJoined(session: session, roomId: localRoomId) else {
                return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'")), actions: [])
            }
            roomIds = [localRoomId]
        } else {
            roomIds = rooms(of: session)
        }
        var actions: [EngineAction] = []
        var ended = 0
        for roomId in roomIds {
            guard let userId = userId(of: session, roomId: roomId) else { continue }
            for link in links.values.sorted(by: { $0.id < $1.id }) where link.involves(roomId: roomId, userId: userId) {
                endLink(link.id, reason: "disconnect", into: &actions)
                ended += 1
            }
        }
        if ended == 0 {
            return EngineOutcome(result: .failure(RelayError(.userStartedNoLink, "no PK link to disconnect")), actions: [])
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Hides (or shows again) the linked peer's audio, video or screen stream in the caller's room only.
    public mutating func updateOtherRoomForwardMode(session: SessionID, params: UpdateOtherRoomForwardModeParams, now: EngineTime) -> EngineOutcome<EmptyResult>
    {
        let localRoomId: String
        switch resolveLocalRoom(session: session, localRoomId: params.localRoomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): localRoomId = found
        }
        guard let userId = userId(of: session, roomId: localRoomId),
            let link = links.values.first(where: {
                ($0.caller.roomId == localRoomId && $0.caller.userId == userId && $0.peer.roomId == params.roomId && $0.peer.userId == params.userId)
                    || ($0.peer.roomId == localRoomId && $0.peer.userId == userId && $0.caller.roomId == params.roomId && $0.caller.userId == params.userId)
            })
        else {
            return EngineOutcome(
                result: .failure(RelayError(.roomHasNoLink, "room '\(localRoomId)' has no link with '\(params.userId)' in '\(params.roomId)'")), actions: [])
        }
        var mask = (link.caller.roomId == localRoomId && link.caller.userId == userId) ? link.caller.muteMask : link.peer.muteMask
        if let audio = params.muteAudio { mask = audio ? mask | 1 : mask & ~1 }
        if let video = params.muteVideo { mask = video ? mask | 2 : mask & ~2 }
        if let screen = params.muteSubStream { mask = screen ? mask | 4 : mask & ~4 }
        if link.caller.roomId == localRoomId && link.caller.userId == userId {
            links[link.id]!.caller.muteMask = mask
        } else {
            links[link.id]!.peer.muteMask = mask
        }
        var actions: [EngineAction] = []
        reconcileMirror(targetRoomId: localRoomId, userId: params.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    // MARK: Helpers

    /// The caller's room for link calls: the one named, or the only one it is in.
    func resolveLocalRoom(session: SessionID, localRoomId: String?) -> Result<String, RelayError> {
        if let localRoomId {
            return isJoined(session: session, roomId: localRoomId)
                ? .success(localRoomId) : .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'"))
        }
        let joined = rooms(of: session)
        switch joined.count {
        case 0: return .failure(RelayError(.notInRoom, "not joined to any room"))
        case 1: return .success(joined[0])
        default: return .failure(RelayError(.linkInvalidParameter, "this connection is in several rooms; name localRoomId"))
        }
    }

    /// Checks every rule for a new link and returns both ends.
    func validateLink(session: SessionID, params: ConnectOtherRoomParams) -> Result<(LinkEnd, LinkEnd), RelayError> {
        let localRoomId: String
        switch resolveLocalRoom(session: session, localRoomId: params.localRoomId) {
        case .failure(let error): return .failure(error)
        case .success(let found): localRoomId = found
        }
        guard case .success(let caller) = member(session, in: localRoomId) else {
            return .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'"))
        }
        return validateLink(caller: caller, localRoomId: localRoomId, peerRoomId: params.roomId, peerUserId: params.userId)
    }

    func validateLink(caller: Member, localRoomId: String, peerRoomId: String, peerUserId: String) -> Result<(LinkEnd, LinkEnd), RelayError> {
        if caller.role != .anchor { return .failure(RelayError(.callerIsAudience, "audience members cannot link; switchRole to anchor first")) }
        if !caller.grants.forward { return .failure(RelayError(.noForwardPermission, "the token for room '\(localRoomId)' has no forward grant")) }
        if peerRoomId.isEmpty || peerUserId.isEmpty { return .failure(RelayError(.linkInvalidParameter, "roomId and userId are required")) }
        if peerRoomId == localRoomId { return .failure(RelayError(.linkInvalidParameter, "cannot link with your own room")) }
        guard let peerRoom = rooms[peerRoomId] else { return .failure(RelayError(.targetRoomNotFound, "room '\(peerRoomId)' does not exist")) }
        guard let peer = peerRoom.members[peerUserId], !peer.isMirror, peer.visible, peer.role == .anchor else {
            return .failure(RelayError(.targetUserNotFound, "'\(peerUserId)' is not a visible anchor in room '\(peerRoomId)'"))
        }
        if !peer.grants.forward { return .failure(RelayError(.noForwardPermission, "the peer's token has no forward grant")) }
        let callerLinks = links.values.filter { $0.involves(roomId: localRoomId, userId: caller.userId) }
        if callerLinks.contains(where: { $0.involves(roomId: peerRoomId, userId: peerUserId) }) {
            return .failure(RelayError(.linkInvalidParameter, "already linked with '\(peerUserId)' in '\(peerRoomId)'"))
        }
        if callerLinks.count >= limits.maximumLinksPerUser {
            return .failure(RelayError(.linkLimitReached, "at most \(limits.maximumLinksPerUser) links per anchor"))
        }
        let peerRoomLinks = links.values.filter { $0.caller.roomId == peerRoomId || $0.peer.roomId == peerRoomId }.count
        if peerRoomLinks >= limits.maximumLinksPerRoom {
            return .failure(RelayError(.targetRoomLinkLimit, "room '\(peerRoomId)' is at its limit of \(limits.maximumLinksPerRoom) links"))
        }
        // A paused forward has no mirror but still claims its target room.
        if forwards.contains(where: { $0.key.userId == caller.userId && $0.value.targets[peerRoomId] != nil }) {
            return .failure(RelayError(.linkInvalidParameter, "'\(caller.userId)' is already forwarded into room '\(peerRoomId)'"))
        }
        if forwards.contains(where: { $0.key.userId == peerUserId && $0.value.targets[localRoomId] != nil }) {
            return .failure(RelayError(.linkInvalidParameter, "'\(peerUserId)' is already forwarded into room '\(localRoomId)'"))
        }
        if rooms[peerRoomId]?.members[caller.userId] != nil {
            return .failure(RelayError(.linkInvalidParameter, "'\(caller.userId)' is already in room '\(peerRoomId)' (a user or a forward with that id)"))
        }
        if rooms[localRoomId]?.members[peerUserId] != nil {
            return .failure(RelayError(.linkInvalidParameter, "'\(peerUserId)' is already in room '\(localRoomId)' (a user or a forward with that id)"))
        }
        return .success(
            (
                LinkEnd(roomId: localRoomId, userId: caller.userId, session: caller.session),
                LinkEnd(roomId: peerRoomId, userId: peerUserId, session: peer.session)
            ))
    }

    /// Creates a validated link: each anchor appears in the other's room, both hear onConnectOtherRoom.
    mutating func createLink(caller: LinkEnd, peer: LinkEnd, now: EngineTime, into actions: inout [EngineAction]) -> ConnectOtherRoomEvent {
        let id = allocateLinkId()
        links[id] = PKLink(id: id, caller: caller, peer: peer, startedAt: now)
        actions.append(.domain(.linkConnected(links[id]!.snapshot)))
        reconcileMirror(targetRoomId: peer.roomId, userId: caller.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
        reconcileMirror(targetRoomId: caller.roomId, userId: peer.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
        let callerEvent = ConnectOtherRoomEvent(roomId: caller.roomId, peerRoomId: peer.roomId, peerUserId: peer.userId, errorCode: 0, message: "linked")
        actions.append(.event(caller.session, .connectOtherRoom(callerEvent)))
        actions.append(
            .event(
                peer.session,
                .connectOtherRoom(
                    ConnectOtherRoomEvent(roomId: peer.roomId, peerRoomId: caller.roomId, peerUserId: caller.userId, errorCode: 0, message: "linked"))))
        return callerEvent
    }

    /// Ends a link: both mirrors leave, both anchors hear onDisconnectOtherRoom (the one leaving
    /// only when its connection is still open). `endedIn` names the room whose side ended the link
    /// (its mirror was kicked, its room dismissed, a real user took the mirror's place): the mirror
    /// there leaves with that reason and its streams end with Other, as a forward's mirror would.
    /// `domainReason` is what the operator hears when it differs from what the anchors hear.
    mutating func endLink(
        _ id: UInt64, reason: String, domainReason: String? = nil, leaving: ForwardKey? = nil, notifyLeaver: Bool = true,
        endedIn: (roomId: String, leaveReason: LeaveReason)? = nil, notifyRemote: Bool = true, into actions: inout [EngineAction]
    ) {
        guard let link = links.removeValue(forKey: id) else { return }
        defer { actions.append(.domain(.linkEnded(link.snapshot, reason: domainReason ?? reason))) }
        for (source, target) in [(link.caller, link.peer), (link.peer, link.caller)] {
            let ended = endedIn?.roomId == target.roomId ? endedIn : nil
            reconcileMirror(
                targetRoomId: target.roomId, userId: source.userId, reason: ended == nil ? .unpublish : .other,
                leaveReason: ended?.leaveReason ?? .quit, into: &actions)
        }
        for (me, other) in [(link.caller, link.peer), (link.peer, link.caller)] {
            let isLeaver = leaving == ForwardKey(roomId: me.roomId, userId: me.userId)
            if isLeaver && !notifyLeaver { continue }
            let seen = leaving == nil || isLeaver ? reason : "peerLeft"
            if let remote = me.remote {
                // The anchor is on another node: that node ends its half and tells it.
                if notifyRemote {
                    actions.append(
                        .notify(
                            .linkEnded(
                                RemoteLinkEnd(
                                    node: remote.node, anchorRoomId: me.roomId, anchorUserId: me.userId, peerRoomId: other.roomId, peerUserId: other.userId,
                                    reason: seen, endedHere: endedIn?.roomId == other.roomId))))
                }
                continue
            }
            actions.append(
                .event(
                    me.session,
                    .disconnectOtherRoom(
                        DisconnectOtherRoomEvent(roomId: me.roomId, peerRoomId: other.roomId, peerUserId: other.userId, reason: seen, errorCode: 0))))
        }
    }

    /// Rooms linked with `roomId` right now.
    func linkedRooms(of roomId: String) -> [String] {
        Set(
            links.values.compactMap { link -> String? in
                if link.caller.roomId == roomId { return link.peer.roomId }
                if link.peer.roomId == roomId { return link.caller.roomId }
                return nil
            }
        ).sorted()
    }

    /// Whether an anchor is in any link (busy for invitations).
    func isLinked(roomId: String, userId: String) -> Bool {
        links.values.contains { $0.involves(roomId: roomId, userId: userId) }
    }
}
