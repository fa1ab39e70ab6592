public import Protocol

/// PK invitations: the two anchors agree before linking. States and misuse errors follow Agora's
/// call-invitation API; both sides hear timeouts.
extension RoomEngine {
    /// Invites anchor `params.userId` of room `params.roomId`. An anchor already in a link
    /// refuses at once with reason busy (when configured).
    public mutating func invite(session: SessionID, params: InviteParams, now: EngineTime) -> EngineOutcome<InviteResult> {
        func fail(_ error: RelayError) -> EngineOutcome<InviteResult> { EngineOutcome(result: .failure(error), actions: []) }
        let localRoomId: String
        switch resolveLocalRoom(session: session, localRoomId: params.localRoomId) {
        case .failure(let error): return fail(error)
        case .success(let found): localRoomId = found
        }
        guard case .success(let caller) = member(session, in: localRoomId) else { return fail(RelayError(.notInRoom, "not joined to room '\(localRoomId)'")) }
        if caller.role != .anchor { return fail(RelayError(.callerIsAudience, "audience members cannot invite; switchRole to anchor first")) }
        if params.roomId == localRoomId || params.userId == caller.userId && params.roomId == localRoomId {
            return fail(RelayError(.invitationInvalidArgument, "cannot invite into your own room"))
        }
        if let payload = params.payload, payload.utf8.count > limits.invitationMaximumPayloadBytes {
            return fail(RelayError(.invitationInvalidArgument, "payload is \(payload.utf8.count) bytes; the limit is \(limits.invitationMaximumPayloadBytes)"))
        }
        let timeout = params.timeoutSeconds ?? limits.invitationDefaultTimeoutSeconds
        if timeout < 0 || timeout > limits.invitationMaximumTimeoutSeconds {
            return fail(RelayError(.invitationInvalidArgument, "timeoutSeconds must be 0 (none) to \(limits.invitationMaximumTimeoutSeconds)"))
        }
        guard rooms[params.roomId] != nil else { return fail(RelayError(.targetRoomNotFound, "room '\(params.roomId)' does not exist")) }
        guard let callee = rooms[params.roomId]?.members[params.userId], !callee.isMirror, callee.visible, callee.role == .anchor else {
            return fail(RelayError(.targetUserNotFound, "'\(params.userId)' is not a visible anchor in room '\(params.roomId)'"))
        }
        if invitations.values.contains(where: {
            $0.isPending && $0.caller.roomId == localRoomId && $0.caller.userId == caller.userId && $0.callee.roomId == params.roomId
                && $0.callee.userId == params.userId
        }) {
            return fail(RelayError(.invitationAlreadySent, "an invitation to '\(params.userId)' is already pending"))
        }
        let id = "inv-\(nextInvitationNumber)"
        nextInvitationNumber += 1
        let invitation = Invitation(
            id: id, caller: LinkEnd(roomId: localRoomId, userId: caller.userId, session: session),
            callee: LinkEnd(roomId: params.roomId, userId: params.userId, session: callee.session), payload: params.payload,
            expiresAt: timeout == 0 ? nil : now.adding(milliseconds: Int64(timeout) * 1000), autoLink: params.autoLink ?? false, state: .receivedByRemote)
        var actions: [EngineAction] = []
        if limits.autoRejectBusyInvitations, isLinked(roomId: params.roomId, userId: params.userId) {
            return refuseAsBusy(invitation, now: now)
        }
        invitations[id] = invitation
        actions.append(
            .event(
                callee.session,
                .invitationReceived(
                    InvitationReceivedEvent(
                        inviteId: id, roomId: params.roomId, fromRoomId: localRoomId, fromUserId: caller.userId, payload: params.payload,
                        timeoutSeconds: timeout, autoLink: invitation.autoLink))))
        actions.append(.event(session, .invitationStateChanged(stateEvent(invitation, side: "caller", reason: nil, payload: nil))))
        return EngineOutcome(result: .success(InviteResult(inviteId: id)), actions: actions)
    }

    /// An invitation to an anchor in a link, refused at once (reason busy): only the caller hears it.
    mutating func refuseAsBusy(_ invitation: Invitation, now: EngineTime) -> EngineOutcome<InviteResult> {
        var refused = invitation
        refused.state = .refused
        refused.endedAt = now
        invitations[refused.id] = refused
        return EngineOutcome(
            result: .success(InviteResult(inviteId: refused.id)),
            actions: [
                .event(refused.caller.session, .invitationStateChanged(stateEvent(refused, side: "caller", reason: "busy", payload: nil))),
                .domain(.invitationEnded(refused.outcome(reason: "busy"))),
            ])
    }

    /// The caller withdraws a pending invitation; both sides hear Canceled.
    public mutating func cancelInvitation(session: SessionID, params: InvitationParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        answer(session: session, params.inviteId, as: "caller", now: now) { engine, invitation, actions in
            engine.finish(&invitation, .canceled, reason: nil, payload: params.payload, now: now, into: &actions)
        }
    }

    /// The invitee accepts; with autoLink the link starts in the same step.
    public mutating func acceptInvitation(session: SessionID, params: InvitationParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        answer(session: session, params.inviteId, as: "callee", now: now) { engine, invitation, actions in
            engine.finish(&invitation, .accepted, reason: nil, payload: params.payload, now: now, into: &actions)
            guard invitation.autoLink else { return }
            guard let caller = engine.rooms[invitation.caller.roomId]?.members[invitation.caller.userId], !caller.isMirror else { return }
            switch engine.validateLink(
                caller: caller, localRoomId: invitation.caller.roomId, peerRoomId: invitation.callee.roomId, peerUserId: invitation.callee.userId)
            {
            case .success(let (callerEnd, peerEnd)):
                _ = engine.createLink(caller: callerEnd, peer: peerEnd, now: now, into: &actions)
            case .failure(let error):
                for (me, other) in [(invitation.caller, invitation.callee), (invitation.callee, invitation.caller)] {
                    actions.append(
                        .event(
                            me.session,
                            .connectOtherRoom(
                                ConnectOtherRoomEvent(
                                    roomId: me.roomId, peerRoomId: other.roomId, peerUserId: other.userId, errorCode: error.code.rawValue,
                                    message: error.message))))
                }
            }
        }
    }

    /// The invitee refuses, with reason `busy` or `active` (its own decision).
    public mutating func rejectInvitation(session: SessionID, params: RejectInvitationParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let reason = params.reason ?? "active"
        guard reason == "busy" || reason == "active" else {
            return EngineOutcome(result: .failure(RelayError(.invitationInvalidArgument, "reason must be busy or active")), actions: [])
        }
        return answer(session: session, params.inviteId, as: "callee", now: now) { engine, invitation, actions in
            engine.finish(&invitation, .refused, reason: reason, payload: params.payload, now: now, into: &actions)
        }
    }

    /// Checks that `session` is the invitation's `side` and that it is pending, then applies `body`.
    mutating func answer(
        session: SessionID, _ id: String, as side: String, now: EngineTime,
        _ body: (inout RoomEngine, inout Invitation, inout [EngineAction]) -> Void
    ) -> EngineOutcome<EmptyResult> {
        guard var invitation = invitations[id], (side == "caller" ? invitation.caller.session : invitation.callee.session) == session else {
            return EngineOutcome(
                result: .failure(RelayError(.invitationNotStarted, "no invitation '\(id)' \(side == "caller" ? "from" : "to") this user")), actions: [])
        }
        switch invitation.state {
        case .accepted: return EngineOutcome(result: .failure(RelayError(.invitationAlreadyAccepted, "invitation '\(id)' was already accepted")), actions: [])
        case .refused, .canceled, .failure, .idle:
            return EngineOutcome(result: .failure(RelayError(.invitationAlreadyEnded, "invitation '\(id)' already ended")), actions: [])
        case .sentToRemote, .receivedByRemote: break
        }
        var actions: [EngineAction] = []
        body(&self, &invitation, &actions)
        invitations[id] = invitation
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Moves an invitation to a final state and tells both sides.
    mutating func finish(
        _ invitation: inout Invitation, _ state: InvitationState, reason: String?, payload: String?, now: EngineTime, notifyRemote: Bool = true,
        into actions: inout [EngineAction]
    ) {
        invitation.state = state
        invitation.endedAt = now
        actions.append(.domain(.invitationEnded(invitation.outcome(reason: reason))))
        for (side, end) in [("caller", invitation.caller), ("callee", invitation.callee)] {
            if let remote = end.remote {
                // That anchor is on another node: its node finishes its half and tells it.
                if notifyRemote {
                    actions.append(
                        .notify(.invitation(RemoteInvitationUpdate(node: remote.node, inviteId: invitation.id, state: state, reason: reason, payload: payload)))
                    )
                }
                continue
            }
            actions.append(.event(end.session, .invitationStateChanged(stateEvent(invitation, side: side, reason: reason, payload: payload))))
        }
    }

    func stateEvent(_ invitation: Invitation, side: String, reason: String?, payload: String?) -> InvitationStateChangedEvent {
        let (me, other) = side == "caller" ? (invitation.caller, invitation.callee) : (invitation.callee, invitation.caller)
        return InvitationStateChangedEvent(
            inviteId: invitation.id, side: side, state: invitation.state.rawValue, roomId: me.roomId, peerRoomId: other.roomId,
            peerUserId: other.userId, reason: reason, payload: payload)
    }

    /// Pending invitations past their timeout fail on both sides; ended ones are forgotten after a minute.
    mutating func expireInvitations(now: EngineTime, into actions: inout [EngineAction]) {
        for id in invitations.keys.sorted() {
            guard var invitation = invitations[id] else { continue }
            if invitation.isPending, let expiry = invitation.expiresAt, now >= expiry {
                finish(&invitation, .failure, reason: "timeout", payload: nil, now: now, into: &actions)
                invitations[id] = invitation
            } else if let ended = invitation.endedAt, now.milliseconds - ended.milliseconds > 60_000 {
                invitations[id] = nil
            } else if !invitation.isPending, invitation.endedAt == nil {
                // Ended where the time was not known (a party left): the minute starts now.
                invitations[id]!.endedAt = now
            }
        }
    }

    /// A user left its room: its pending invitations fail (reason peerLeft) for the other side.
    mutating func endInvitations(roomId: String, userId: String, reason: String, into actions: inout [EngineAction]) {
        for id in invitations.keys.sorted() {
            guard var invitation = invitations[id], invitation.isPending else { continue }
            let isCaller = invitation.caller.roomId == roomId && invitation.caller.userId == userId
            let isCallee = invitation.callee.roomId == roomId && invitation.callee.userId == userId
            guard isCaller || isCallee else { continue }
            invitation.state = .failure
            // The time is not known here; the next tick stamps it (see expireInvitations).
            invitation.endedAt = nil
            let other = isCaller ? "callee" : "caller"
            let otherEnd = isCaller ? invitation.callee : invitation.caller
            if let remote = otherEnd.remote {
                actions.append(.notify(.invitation(RemoteInvitationUpdate(node: remote.node, inviteId: id, state: .failure, reason: reason, payload: nil))))
            } else {
                actions.append(.event(otherEnd.session, .invitationStateChanged(stateEvent(invitation, side: other, reason: reason, payload: nil))))
            }
            actions.append(.domain(.invitationEnded(invitation.outcome(reason: reason))))
            invitations[id] = invitation
        }
    }
}
