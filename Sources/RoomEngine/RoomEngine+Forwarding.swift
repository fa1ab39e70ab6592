public import Protocol

/// Forwarding a user's streams into other rooms (Volcengine's startForwardStreamToRooms model).
extension RoomEngine {
    /// Starts forwarding the caller's streams from `roomId` into the targets. Each target
    /// succeeds or fails on its own; the result and onForwardStreamStateChanged list them all.
    public mutating func startForward(
        session: SessionID, roomId: String, targets: [ForwardTargetRequest], now: EngineTime
    ) -> EngineOutcome<ForwardStreamResult> {
        let member: Member
        switch forwardingMember(session: session, roomId: roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        let key = ForwardKey(roomId: roomId, userId: member.userId)
        var actions: [EngineAction] = []
        if let existing = forwards[key], !existing.order.isEmpty {
            forwardEvent(.unexpectedAPICall, roomId: roomId, userId: member.userId, into: &actions)
            return EngineOutcome(
                result: .failure(
                    RelayError(.forwardAlreadyStarted, "a forward from room '\(roomId)' is running; use updateForwardStreamToRooms to change its targets")),
                actions: actions)
        }
        if targets.count > limits.maximumForwardTargetsPerUser {
            return EngineOutcome(
                result: .failure(RelayError(.forwardTargetLimit, "at most \(limits.maximumForwardTargetsPerUser) forward targets; \(targets.count) given")),
                actions: [])
        }
        forwards[key] = Forward(session: session)
        var infos: [ForwardStreamStateInfo] = []
        var seen = Set<String>()
        for target in targets {
            infos.append(addTarget(target, key: key, seen: &seen, now: now, into: &actions))
        }
        // Target rooms' new subscribers each ask for a keyframe when their sink is bound, which
        // for a WebRTC subscriber is only once its answer accepts the track.
        if forwards[key]!.order.isEmpty { forwards[key] = nil }
        actions.append(.event(session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: roomId, userId: member.userId, infos: infos))))
        return EngineOutcome(result: .success(ForwardStreamResult(roomId: roomId, infos: infos)), actions: actions)
    }

    /// Replaces the target list: targets left out stop (Idle), new ones start, kept ones take
    /// their refreshed token. Only changed targets are reported.
    public mutating func updateForward(
        session: SessionID, roomId: String, targets: [ForwardTargetRequest], now: EngineTime
    ) -> EngineOutcome<ForwardStreamResult> {
        let member: Member
        switch forwardingMember(session: session, roomId: roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        let key = ForwardKey(roomId: roomId, userId: member.userId)
        var actions: [EngineAction] = []
        guard let forward = forwards[key] else { return notStarted(roomId: roomId, userId: member.userId, call: "updateForwardStreamToRooms") }
        let wanted = targets.map(\.roomId)
        if Set(wanted).count > limits.maximumForwardTargetsPerUser {
            return EngineOutcome(
                result: .failure(RelayError(.forwardTargetLimit, "at most \(limits.maximumForwardTargetsPerUser) forward targets; \(Set(wanted).count) given")),
                actions: [])
        }
        var infos: [ForwardStreamStateInfo] = []
        var events: [ForwardStreamEventInfo] = []
        for removed in forward.order where !wanted.contains(removed) {
            forwards[key]!.remove(removed)
            reconcileMirror(targetRoomId: removed, userId: member.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
            infos.append(ForwardStreamStateInfo(roomId: removed, state: ForwardState.idle.rawValue, error: 0))
            actions.append(.domain(.forwardStateChanged(ForwardStateChange(sourceRoomId: roomId, userId: member.userId, targetRoomId: removed, state: .idle))))
            events.append(ForwardStreamEventInfo(roomId: removed, event: ForwardEvent.dstRoomUpdated.rawValue))
        }
        var seen = Set<String>()
        for target in targets {
            if forwards[key]?.targets[target.roomId] != nil, !seen.contains(target.roomId) {
                seen.insert(target.roomId)
                switch target.grants {
                case .success(let grants) where grants.publish:
                    forwards[key]!.targets[target.roomId]!.grants = grants
                    reconcileMirror(targetRoomId: target.roomId, userId: member.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
                case .success:
                    infos.append(
                        failTarget(target.roomId, key: key, error: .forwardInvalidToken, message: "the target token has no publish grant", into: &actions))
                case .failure(let error):
                    infos.append(failTarget(target.roomId, key: key, error: Self.targetFailureCode(error), message: error.message, into: &actions))
                }
                continue
            }
            let info = addTarget(target, key: key, seen: &seen, now: now, into: &actions)
            infos.append(info)
            if info.state == ForwardState.success.rawValue {
                events.append(ForwardStreamEventInfo(roomId: target.roomId, event: ForwardEvent.dstRoomUpdated.rawValue))
            }
        }
        if forwards[key]?.order.isEmpty == true { forwards[key] = nil }
        if !infos.isEmpty {
            actions.append(.event(session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: roomId, userId: member.userId, infos: infos))))
        }
        if !events.isEmpty {
            actions.append(.event(session, .forwardStreamEvent(ForwardStreamEventEvent(roomId: roomId, userId: member.userId, infos: events))))
        }
        return EngineOutcome(result: .success(ForwardStreamResult(roomId: roomId, infos: infos)), actions: actions)
    }

    /// Stops every target (Idle): target rooms see unpublish then leave.
    public mutating func stopForward(session: SessionID, roomId: String, now: EngineTime) -> EngineOutcome<ForwardStreamResult> {
        let member: Member
        switch self.member(session, in: roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        let key = ForwardKey(roomId: roomId, userId: member.userId)
        guard forwards[key] != nil else { return notStarted(roomId: roomId, userId: member.userId, call: "stopForwardStreamToRooms") }
        var actions: [EngineAction] = []
        let infos = stopAllTargets(key: key, into: &actions)
        actions.append(.event(session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: roomId, userId: member.userId, infos: infos))))
        return EngineOutcome(result: .success(ForwardStreamResult(roomId: roomId, infos: infos)), actions: actions)
    }

    /// Pauses (true) or resumes (false) every target: target rooms see unpublish + leave, then
    /// join + publish. States stay Success.
    public mutating func pauseForward(session: SessionID, roomId: String, paused: Bool, now: EngineTime) -> EngineOutcome<ForwardStreamResult> {
        let member: Member
        switch self.member(session, in: roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        let key = ForwardKey(roomId: roomId, userId: member.userId)
        guard let forward = forwards[key] else {
            return notStarted(roomId: roomId, userId: member.userId, call: paused ? "pauseForwardStreamToAllRooms" : "resumeForwardStreamToAllRooms")
        }
        var actions: [EngineAction] = []
        if forward.paused != paused {
            forwards[key]!.paused = paused
            for target in forward.order {
                if !paused {
                    forwards[key]!.targets[target]!.startedAt = now
                    forwards[key]!.targets[target]!.firstKeyframeReported = false
                }
                reconcileMirror(targetRoomId: target, userId: member.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
            }
        }
        let infos = forwards[key]!.order.map { ForwardStreamStateInfo(roomId: $0, state: ForwardState.success.rawValue, error: 0) }
        return EngineOutcome(result: .success(ForwardStreamResult(roomId: roomId, infos: infos)), actions: actions)
    }

    // MARK: Helpers

    func forwardingMember(session: SessionID, roomId: String) -> Result<Member, RelayError> {
        member(session, in: roomId).flatMap { member in
            member.grants.forward ? .success(member) : .failure(RelayError(.noForwardPermission, "the token for room '\(roomId)' has no forward grant"))
        }
    }

    func notStarted<Success>(roomId: String, userId: String, call: String) -> EngineOutcome<Success> {
        var actions: [EngineAction] = []
        forwardEvent(.unexpectedAPICall, roomId: roomId, userId: userId, into: &actions)
        return EngineOutcome(
            result: .failure(
                RelayError(.forwardNotStarted, "\(call): no forward from room '\(roomId)' is running (never started, stopped, or every target has ended)")),
            actions: actions)
    }

    /// Validates one new target and, if it passes, starts forwarding into it; either way the
    /// outcome is a domain event.
    mutating func addTarget(
        _ target: ForwardTargetRequest, key: ForwardKey, seen: inout Set<String>, now: EngineTime, into actions: inout [EngineAction]
    ) -> ForwardStreamStateInfo {
        let info = startTarget(target, key: key, seen: &seen, now: now, into: &actions)
        actions.append(
            .domain(
                .forwardStateChanged(
                    ForwardStateChange(
                        sourceRoomId: key.roomId, userId: key.userId, targetRoomId: target.roomId, state: ForwardState(rawValue: info.state) ?? .failure,
                        error: info.error, message: info.message))))
        return info
    }

    private mutating func startTarget(
        _ target: ForwardTargetRequest, key: ForwardKey, seen: inout Set<String>, now: EngineTime, into actions: inout [EngineAction]
    ) -> ForwardStreamStateInfo {
        func failure(_ code: ErrorCode, _ message: String) -> ForwardStreamStateInfo {
            ForwardStreamStateInfo(roomId: target.roomId, state: ForwardState.failure.rawValue, error: code.rawValue, message: message)
        }
        if let problem = RelayIdentifier.problem(with: target.roomId) { return failure(.forwardInvalidArgument, "target roomId \(problem)") }
        if target.roomId == key.roomId { return failure(.forwardInvalidArgument, "cannot forward into the source room") }
        if !seen.insert(target.roomId).inserted { return failure(.forwardInvalidArgument, "target room listed twice") }
        let grants: TokenGrants
        switch target.grants {
        case .failure(let error): return failure(Self.targetFailureCode(error), error.message)
        case .success(let verified) where !verified.publish: return failure(.forwardInvalidToken, "the target token has no publish grant")
        case .success(let verified): grants = verified
        }
        if let present = rooms[target.roomId]?.members[key.userId] {
            if !present.isMirror { return failure(.forwardRemoteKicked, "a user with the same userId is in the target room") }
            if present.forwardedFrom != key.roomId {
                return failure(.forwardInvalidArgument, "the user is already forwarded or linked into that room from another room")
            }
        }
        // A paused forward has no mirror but still claims its targets: one user appears in a room
        // from one source room only.
        if forwards.contains(where: { $0.key.userId == key.userId && $0.key.roomId != key.roomId && $0.value.targets[target.roomId] != nil }) {
            return failure(.forwardInvalidArgument, "the user is already forwarded into that room from another room")
        }
        if links.values.contains(where: {
            ($0.caller.userId == key.userId && $0.peer.roomId == target.roomId) || ($0.peer.userId == key.userId && $0.caller.roomId == target.roomId)
        }) {
            return failure(.forwardInvalidArgument, "the user is linked with that room already")
        }
        if let room = rooms[target.roomId] {
            if room.visibleCount >= limits.maximumVisibleUsersPerRoom { return failure(.forwardResponse, "the target room is at its visible-user limit") }
            if room.publisherCount >= limits.maximumPublishersPerRoom { return failure(.forwardResponse, "the target room is at its publisher limit") }
        }
        forwards[key]!.insert(ForwardTarget(roomId: target.roomId, grants: grants, startedAt: now, remote: target.remote))
        reconcileMirror(targetRoomId: target.roomId, userId: key.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
        return ForwardStreamStateInfo(roomId: target.roomId, state: ForwardState.success.rawValue, error: 0)
    }

    /// Ends one target with a failure: the mirror leaves the target room. The forward itself stays
    /// even if it has no target left, because the caller (updateForward) may still add targets to
    /// it; the caller drops an empty forward when it is done.
    mutating func failTarget(
        _ targetRoomId: String, key: ForwardKey, error: ErrorCode, message: String, into actions: inout [EngineAction]
    ) -> ForwardStreamStateInfo {
        forwards[key]?.remove(targetRoomId)
        reconcileMirror(targetRoomId: targetRoomId, userId: key.userId, reason: .other, leaveReason: .dropped, into: &actions)
        actions.append(
            .domain(
                .forwardStateChanged(
                    ForwardStateChange(
                        sourceRoomId: key.roomId, userId: key.userId, targetRoomId: targetRoomId, state: .failure, error: error.rawValue, message: message))))
        return ForwardStreamStateInfo(roomId: targetRoomId, state: ForwardState.failure.rawValue, error: error.rawValue, message: message)
    }

    /// Stops every target of a forward (Idle). `departure` is set when its user left its room.
    mutating func stopAllTargets(key: ForwardKey, departure: DepartureReason? = nil, into actions: inout [EngineAction]) -> [ForwardStreamStateInfo] {
        guard let forward = forwards[key] else { return [] }
        forwards[key] = nil
        var infos: [ForwardStreamStateInfo] = []
        for target in forward.order {
            reconcileMirror(targetRoomId: target, userId: key.userId, reason: .unpublish, leaveReason: .quit, into: &actions)
            infos.append(ForwardStreamStateInfo(roomId: target, state: ForwardState.idle.rawValue, error: 0))
            actions.append(
                .domain(
                    .forwardStateChanged(
                        ForwardStateChange(
                            sourceRoomId: key.roomId, userId: key.userId, targetRoomId: target, state: .idle, departure: departure))))
        }
        return infos
    }

    /// Sends onForwardStreamEvent for all targets (empty roomId) if the user forwards from the room.
    func forwardEvent(_ event: ForwardEvent, roomId: String, userId: String, into actions: inout [EngineAction]) {
        let key = ForwardKey(roomId: roomId, userId: userId)
        let session = forwards[key]?.session ?? rooms[roomId]?.members[userId]?.session
        guard let session else { return }
        if event == .connected || event == .disconnected, forwards[key] == nil { return }
        actions.append(
            .event(
                session,
                .forwardStreamEvent(ForwardStreamEventEvent(roomId: roomId, userId: userId, infos: [ForwardStreamEventInfo(roomId: "", event: event.rawValue)]))
            ))
    }

    /// A mirror in `roomId` ends from the target side (kicked, room dismissed, token expired):
    /// its forward target fails with `forwardError`, or its link ends with `linkReason`.
    mutating func endMirror(
        roomId: String, userId: String, forwardError: ErrorCode, linkReason: String, leaveReason: LeaveReason, into actions: inout [EngineAction]
    ) {
        guard let mirror = rooms[roomId]?.members[userId], mirror.isMirror else { return }
        // A replica stands for a member of the same room on another node: it only leaves here.
        guard !mirror.isReplica, let source = mirror.forwardedFrom else {
            removeMember(roomId: roomId, userId: userId, leaveReason: leaveReason, unpublishReason: .other, exit: nil, into: &actions)
            return
        }
        if let node = mirror.remoteNode {
            if let link = links.values.sorted(by: { $0.id < $1.id }).first(where: { $0.involves(roomId: source, userId: userId) }) {
                endLink(link.id, reason: linkReason, endedIn: (roomId, leaveReason), into: &actions)
                if rooms[roomId]?.members[userId]?.remoteNode != nil {
                    removeMember(roomId: roomId, userId: userId, leaveReason: leaveReason, unpublishReason: .other, exit: nil, into: &actions)
                }
                return
            }
            actions.append(
                .notify(
                    .mirrorEnded(
                        RemoteMirrorEnd(
                            node: node, sourceRoomId: source, targetRoomId: roomId, userId: userId, forwardError: forwardError, leaveReason: leaveReason))))
            removeMember(roomId: roomId, userId: userId, leaveReason: leaveReason, unpublishReason: .other, exit: nil, into: &actions)
            return
        }
        if forwards[ForwardKey(roomId: source, userId: userId)]?.targets[roomId] != nil {
            endForwardTarget(sourceRoomId: source, targetRoomId: roomId, userId: userId, forwardError: forwardError, leaveReason: leaveReason, into: &actions)
            return
        }
        for link in links.values.sorted(by: { $0.id < $1.id }) where link.involves(roomId: source, userId: userId) {
            if (link.caller.userId == userId && link.peer.roomId == roomId) || (link.peer.userId == userId && link.caller.roomId == roomId) {
                endLink(link.id, reason: linkReason, endedIn: (roomId, leaveReason), into: &actions)
            }
        }
        if rooms[roomId]?.members[userId]?.isMirror == true {
            removeMember(roomId: roomId, userId: userId, leaveReason: leaveReason, unpublishReason: .other, exit: nil, into: &actions)
        }
    }

    /// Ends one target of the forward from `sourceRoomId` as a failure with `forwardError`: its
    /// mirror (if shown) leaves, and the forwarding user hears the state change and the event.
    mutating func endForwardTarget(
        sourceRoomId: String, targetRoomId: String, userId: String, forwardError: ErrorCode, leaveReason: LeaveReason, into actions: inout [EngineAction]
    ) {
        let key = ForwardKey(roomId: sourceRoomId, userId: userId)
        guard let forward = forwards[key], forward.targets[targetRoomId] != nil else { return }
        forwards[key]!.remove(targetRoomId)
        if forwards[key]!.order.isEmpty { forwards[key] = nil }
        reconcileMirror(targetRoomId: targetRoomId, userId: userId, reason: .other, leaveReason: leaveReason, into: &actions)
        let info = ForwardStreamStateInfo(
            roomId: targetRoomId, state: ForwardState.failure.rawValue, error: forwardError.rawValue, message: Self.endMessage(forwardError))
        actions.append(
            .domain(
                .forwardStateChanged(
                    ForwardStateChange(
                        sourceRoomId: sourceRoomId, userId: userId, targetRoomId: targetRoomId, state: .failure, error: forwardError.rawValue,
                        message: info.message))))
        actions.append(.event(forward.session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: sourceRoomId, userId: userId, infos: [info]))))
        let event = forwardError == .forwardRemoteKicked && leaveReason == .dropped ? ForwardEvent.interrupt : .dstRoomUpdated
        actions.append(
            .event(
                forward.session,
                .forwardStreamEvent(
                    ForwardStreamEventEvent(
                        roomId: sourceRoomId, userId: userId, infos: [ForwardStreamEventInfo(roomId: targetRoomId, event: event.rawValue)]))))
    }

    /// A real user joined `roomId` while a forward of the same userId into it was paused (so no
    /// mirror stood there to be replaced): that target ends as if the mirror had been, instead
    /// of reporting Success on resume with nobody shown for it.
    mutating func interruptPausedForwards(into roomId: String, userId: String, into actions: inout [EngineAction]) {
        let sources = forwards.filter { $0.key.userId == userId && $0.value.paused && $0.value.targets[roomId] != nil }.map(\.key.roomId).sorted()
        for source in sources {
            endForwardTarget(
                sourceRoomId: source, targetRoomId: roomId, userId: userId, forwardError: .forwardRemoteKicked, leaveReason: .dropped, into: &actions)
        }
    }

    static func endMessage(_ code: ErrorCode) -> String {
        switch code {
        case .forwardRemoteKicked: "the forward into this room ended: a user with the same userId took its place, or the room server removed it"
        case .forwardResponse: "the target room was dismissed"
        case .forwardInvalidToken: "the target token expired"
        default: "the forward into this room ended"
        }
    }

    /// A real user joined a room where the same userId was mirrored: that forward ends with
    /// RemoteKicked (1204) and Interrupt, or that link ends.
    mutating func interruptMirror(roomId: String, userId: String, into actions: inout [EngineAction]) {
        endMirror(roomId: roomId, userId: userId, forwardError: .forwardRemoteKicked, linkReason: "interrupted", leaveReason: .dropped, into: &actions)
    }

    /// A user leaves its room (`departure` says why): its forwards stop and its links end.
    mutating func endForwardsAndLinks(
        roomId: String, userId: String, sessionConnected: Bool, exitReason: ExitRoomReason?, departure: DepartureReason, into actions: inout [EngineAction]
    ) {
        let key = ForwardKey(roomId: roomId, userId: userId)
        if let forward = forwards[key] {
            let infos = stopAllTargets(key: key, departure: departure, into: &actions)
            if sessionConnected, !infos.isEmpty {
                actions.append(
                    .event(forward.session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: roomId, userId: userId, infos: infos))))
            }
        }
        let reason: String
        switch exitReason {
        case .kicked?: reason = "kicked"
        case .roomDismissed?: reason = "roomDismissed"
        default: reason = "left"
        }
        // The operator hears why the link really ended, also when the leaver could not be told.
        let endedBecause: String
        switch departure {
        case .disconnected, .serverShutdown, .tokenExpired, .duplicateLogin: endedBecause = departure.rawValue
        case .left, .kicked, .roomDismissed: endedBecause = reason
        }
        for link in links.values.sorted(by: { $0.id < $1.id }) where link.involves(roomId: roomId, userId: userId) {
            endLink(
                link.id, reason: reason, domainReason: endedBecause, leaving: ForwardKey(roomId: roomId, userId: userId), notifyLeaver: sessionConnected,
                into: &actions)
        }
    }

    /// The code a target fails with when its request came refused: a forward error (12xx) as
    /// given (the node serving the target room answered it, or could not be reached: 1205);
    /// anything else is a token problem (1202).
    static func targetFailureCode(_ error: RelayError) -> ErrorCode {
        (ErrorCode.forwardInvalidArgument.rawValue...ErrorCode.forwardNotSupported.rawValue).contains(error.code.rawValue) ? error.code : .forwardInvalidToken
    }
}
