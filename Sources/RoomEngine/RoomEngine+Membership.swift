public import Protocol

extension RoomEngine {
    /// Joins a room. A member with the same userId in another session is replaced (duplicate
    /// login): that session receives onExitRoom (kicked, -1004) and the others see it leave
    /// (Dropped) before the new session joins.
    public mutating func join(_ request: JoinRequest, now: EngineTime) -> EngineOutcome<JoinRoomResult> {
        var actions: [EngineAction] = []
        for (name, id) in [("roomId", request.roomId), ("userId", request.userId)] {
            if let problem = RelayIdentifier.problem(with: id) {
                return EngineOutcome(result: .failure(RelayError(.invalidParams, "params.\(name) \(problem)")), actions: [])
            }
        }
        if isJoined(session: request.session, roomId: request.roomId) {
            return EngineOutcome(result: .failure(RelayError(.alreadyInRoom, "already joined to room '\(request.roomId)'")), actions: [])
        }
        if let transport = request.roomConfig.subscribeTransportId, !owns(request.session, transport: transport) {
            return EngineOutcome(
                result: .failure(RelayError(.transportNotFound, "roomConfig.subscribeTransportId \(transport) is not a transport of this connection")),
                actions: [])
        }
        let visible = request.visible && !request.grants.hidden
        let previous = rooms[request.roomId]?.members[request.userId]
        // Checked before a duplicate login is replaced, so that a refused join changes nothing;
        // the member being replaced does not count.
        if visible, let room = rooms[request.roomId],
            room.visibleCount - (previous?.visible == true ? 1 : 0) >= limits.maximumVisibleUsersPerRoom
        {
            return EngineOutcome(
                result: .failure(RelayError(.visibilityRefused, "room '\(request.roomId)' has reached its visible-user limit; join invisible")), actions: [])
        }
        var joinType = 0
        if let previous, previous.isMirror {
            // A real user with the forwarded user's id takes its place: that forward or link ends.
            interruptMirror(roomId: request.roomId, userId: request.userId, into: &actions)
        } else if previous == nil {
            interruptPausedForwards(into: request.roomId, userId: request.userId, into: &actions)
        } else {
            joinType = 1
            removeMember(
                roomId: request.roomId, userId: request.userId, leaveReason: .dropped, unpublishReason: .clientDisconnected,
                exit: (.kicked, .duplicateLogin, "the same userId joined the room from another connection"), departure: .duplicateLogin,
                roomStays: true, into: &actions)
        }
        let member = Member(
            session: request.session, userId: request.userId, role: request.role, visible: visible,
            config: request.roomConfig, grants: request.grants)
        // A room served here as an edge is its origin's: it is created and ends there.
        if rooms[request.roomId] == nil, edgeOrigins[request.roomId] == nil { actions.append(.domain(.roomCreated(roomId: request.roomId))) }
        var room = rooms[request.roomId] ?? Room(id: request.roomId)
        let existing = room.orderedMembers
        room.insert(member)
        rooms[request.roomId] = room
        sessions[request.session, default: SessionState()].rooms.insert(request.roomId)
        actions.append(
            .domain(
                .userJoined(
                    roomId: request.roomId, userId: request.userId, session: request.session, role: request.role, visible: visible,
                    replacedSession: joinType == 1 ? previous?.session : nil)))

        actions.append(
            .event(request.session, .roomStateChanged(RoomStateChangedEvent(roomId: request.roomId, userId: request.userId, state: 0, joinType: joinType))))
        if visible {
            broadcast(
                .userJoined(UserJoinedEvent(roomId: request.roomId, userId: request.userId, role: request.role)), in: request.roomId, except: request.userId,
                into: &actions)
        }
        var users: [RemoteUserInfo] = []
        for other in existing where other.visible {
            let streams = StreamIndex.allCases.compactMap { index in
                other.publications[index].map { RemoteStreamInfo(streamIndex: index, mediaType: $0.mediaType) }
            }
            users.append(RemoteUserInfo(userId: other.userId, role: other.role, streams: streams, forwardedFrom: other.forwardedFrom))
            actions.append(
                .event(
                    request.session,
                    .userJoined(UserJoinedEvent(roomId: request.roomId, userId: other.userId, role: other.role, forwardedFrom: other.forwardedFrom))))
            for stream in streams {
                actions.append(
                    .event(
                        request.session,
                        .userPublishStream(
                            UserPublishStreamEvent(roomId: request.roomId, userId: other.userId, streamIndex: stream.streamIndex, mediaType: stream.mediaType)))
                )
                autoSubscribe(roomId: request.roomId, subscriberId: request.userId, publisherId: other.userId, streamIndex: stream.streamIndex, into: &actions)
            }
        }
        let result = JoinRoomResult(
            roomId: request.roomId, userId: request.userId, role: request.role, visible: visible, users: users,
            tokenExpiresAt: request.grants.expiresAt.seconds)
        return EngineOutcome(result: .success(result), actions: actions)
    }

    /// Leaves a room by request: its streams end with ClientDisconnected (the user left the room),
    /// others see Quit, the user receives onExitRoom (left).
    public mutating func leave(session: SessionID, roomId: String, now: EngineTime) -> EngineOutcome<EmptyResult> {
        switch member(session, in: roomId) {
        case .failure(let error):
            return EngineOutcome(result: .failure(error), actions: [])
        case .success(let member):
            var actions: [EngineAction] = []
            removeMember(
                roomId: roomId, userId: member.userId, leaveReason: .quit, unpublishReason: .clientDisconnected, exit: (.left, ErrorCode(0), "left the room"),
                departure: .left, into: &actions)
            return EngineOutcome(result: .success(EmptyResult()), actions: actions)
        }
    }

    /// Removes a user from a room (issued by the room server): others see KickedByAdmin, the user
    /// receives onExitRoom (kicked, -1006).
    public mutating func kick(roomId: String, userId: String, now: EngineTime) -> EngineOutcome<EmptyResult> {
        guard let target = rooms[roomId]?.members[userId] else {
            return EngineOutcome(result: .failure(RelayError(.streamNotFound, "no user '\(userId)' in room '\(roomId)'")), actions: [])
        }
        var actions: [EngineAction] = []
        if target.isMirror {
            endMirror(roomId: roomId, userId: userId, forwardError: .forwardRemoteKicked, linkReason: "kicked", leaveReason: .kickedByAdmin, into: &actions)
            return EngineOutcome(result: .success(EmptyResult()), actions: actions)
        }
        removeMember(
            roomId: roomId, userId: userId, leaveReason: .kickedByAdmin, unpublishReason: .other,
            exit: (.kicked, .kickedOut, "removed from the room by the room server"),
            departure: .kicked, into: &actions)
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Dismisses a room: every member receives onExitRoom (room dismissed, -1011). `reason` is the
    /// room server's, passed on to the operator.
    public mutating func dismiss(roomId: String, reason: String? = nil, now: EngineTime) -> EngineOutcome<EmptyResult> {
        guard let room = rooms[roomId] else {
            return EngineOutcome(result: .failure(RelayError(.streamNotFound, "no room '\(roomId)'")), actions: [])
        }
        var actions: [EngineAction] = [.domain(.roomDismissed(roomId: roomId, reason: reason))]
        endEdges(of: roomId, exit: (.roomDismissed, .roomDismissed, "the room was dismissed"), into: &actions)
        for member in room.orderedMembers.reversed() where member.isMirror {
            endMirror(
                roomId: roomId, userId: member.userId, forwardError: .forwardResponse, linkReason: "roomDismissed", leaveReason: .kickedByAdmin, into: &actions)
        }
        for member in (rooms[roomId]?.orderedMembers ?? []).reversed() where !member.isMirror {
            removeMember(
                roomId: roomId, userId: member.userId, leaveReason: .kickedByAdmin, unpublishReason: .other,
                exit: (.roomDismissed, .roomDismissed, "the room was dismissed"),
                departure: .roomDismissed, into: &actions)
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Takes a member out of a room: its streams are unpublished, subscriptions to and from it
    /// end, others see it leave (if it was visible), and the user itself optionally hears why.
    /// `departure` is why a user (not a forwarded or linked one) left, for the domain events;
    /// `roomStays` keeps an emptied room because its next member joins at once (a duplicate login).
    mutating func removeMember(
        roomId: String, userId: String, leaveReason: LeaveReason, unpublishReason: UnpublishReason,
        exit: (reason: ExitRoomReason, code: ErrorCode, message: String)?, departure: DepartureReason? = nil, roomStays: Bool = false,
        into actions: inout [EngineAction]
    ) {
        guard let member = rooms[roomId]?.members[userId] else { return }
        if !member.isMirror {
            endInvitations(roomId: roomId, userId: userId, reason: "peerLeft", into: &actions)
        }
        for index in StreamIndex.allCases where member.publications[index] != nil {
            unpublish(roomId: roomId, userId: userId, streamIndex: index, reason: unpublishReason, departure: departure, into: &actions)
        }
        dropSubscriptions(roomId: roomId, toPublisher: userId, into: &actions)
        if var current = rooms[roomId]?.members[userId] {
            for key in current.subscriptions.keys.sorted(by: { ($0.publisherUserId, $0.streamIndex.rawValue) < ($1.publisherUserId, $1.streamIndex.rawValue) })
            {
                var subscription = current.subscriptions[key]!
                for kind in [TrackKind.audio, .video] where subscription.sinks[kind] != nil {
                    removeSink(kind: kind, of: &subscription, into: &actions)
                }
            }
            current.subscriptions = [:]
            rooms[roomId]!.members[userId] = current
        }
        if !member.isMirror {
            // Forwards and links of a user who leaves end with it, before it leaves its own room.
            endForwardsAndLinks(
                roomId: roomId, userId: userId, sessionConnected: exit != nil, exitReason: exit?.reason, departure: departure ?? .disconnected, into: &actions)
        }
        if member.visible {
            broadcast(.userLeave(UserLeaveEvent(roomId: roomId, userId: userId, reason: leaveReason)), in: roomId, except: userId, into: &actions)
        }
        if let exit {
            actions.append(
                .event(member.session, .exitRoom(ExitRoomEvent(roomId: roomId, reason: exit.reason, code: exit.code.rawValue, message: exit.message))))
        }
        rooms[roomId]!.remove(userId)
        if member.remoteNode != nil { remoteMirrorStreams[ForwardKey(roomId: roomId, userId: userId)] = nil }
        if !member.isMirror {
            sessions[member.session]?.rooms.remove(roomId)
            messageBuckets[ForwardKey(roomId: roomId, userId: userId)] = nil
            actions.append(.domain(.userLeft(roomId: roomId, userId: userId, session: member.session, reason: departure ?? .disconnected)))
        }
        if !roomStays { endRoomIfEmpty(roomId, into: &actions) }
        if !member.isMirror, !roomStays { releaseEdgeRoomIfUnwatched(roomId, into: &actions) }
    }
}
