public import Protocol

/// PK invitations between anchors on two cluster nodes. Each node holds its half of the
/// invitation under one id (the caller's node names it), with the other anchor as a remote end;
/// each tells its own anchor, and a final state reached on one side is sent to the other.
extension RoomEngine {
    /// The caller's side of an invitation to an anchor in a room another node serves; returns
    /// the caller's room, its userId and the timeout in seconds.
    public func validateRemoteInvite(session: SessionID, params: InviteParams) -> Result<(roomId: String, userId: String, timeoutSeconds: Int), RelayError> {
        let localRoomId: String
        switch resolveLocalRoom(session: session, localRoomId: params.localRoomId) {
        case .failure(let error): return .failure(error)
        case .success(let found): localRoomId = found
        }
        guard case .success(let caller) = member(session, in: localRoomId) else {
            return .failure(RelayError(.notInRoom, "not joined to room '\(localRoomId)'"))
        }
        if caller.role != .anchor { return .failure(RelayError(.callerIsAudience, "audience members cannot invite; switchRole to anchor first")) }
        if params.roomId == localRoomId { return .failure(RelayError(.invitationInvalidArgument, "cannot invite into your own room")) }
        if let payload = params.payload, payload.utf8.count > limits.invitationMaximumPayloadBytes {
            return .failure(
                RelayError(.invitationInvalidArgument, "payload is \(payload.utf8.count) bytes; the limit is \(limits.invitationMaximumPayloadBytes)"))
        }
        let timeout = params.timeoutSeconds ?? limits.invitationDefaultTimeoutSeconds
        if timeout < 0 || timeout > limits.invitationMaximumTimeoutSeconds {
            return .failure(RelayError(.invitationInvalidArgument, "timeoutSeconds must be 0 (none) to \(limits.invitationMaximumTimeoutSeconds)"))
        }
        if invitations.values.contains(where: {
            $0.isPending && $0.caller.roomId == localRoomId && $0.caller.userId == caller.userId && $0.callee.roomId == params.roomId
                && $0.callee.userId == params.userId
        }) {
            return .failure(RelayError(.invitationAlreadySent, "an invitation to '\(params.userId)' is already pending"))
        }
        return .success((localRoomId, caller.userId, timeout))
    }

    /// A new invitation id, unique across the cluster with the node's id as `prefix`.
    public mutating func allocateInvitationId(prefix: String) -> String {
        defer { nextInvitationNumber += 1 }
        return "\(prefix)-inv-\(nextInvitationNumber)"
    }

    /// The caller's half, once the callee's node took the invitation (or refused it as busy):
    /// the caller hears the state, as on one node.
    public mutating func recordRemoteInvitation(
        session: SessionID, params: InviteParams, id: String, to remote: RemoteTarget, busy: Bool, now: EngineTime
    ) -> EngineOutcome<InviteResult> {
        let checked: (roomId: String, userId: String, timeoutSeconds: Int)
        switch validateRemoteInvite(session: session, params: params) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): checked = found
        }
        let invitation = Invitation(
            id: id, caller: LinkEnd(roomId: checked.roomId, userId: checked.userId, session: session),
            callee: LinkEnd(roomId: params.roomId, userId: params.userId, session: Self.remoteSession, remote: remote), payload: params.payload,
            expiresAt: checked.timeoutSeconds == 0 ? nil : now.adding(milliseconds: Int64(checked.timeoutSeconds) * 1000),
            autoLink: params.autoLink ?? false, state: .receivedByRemote)
        var actions: [EngineAction] = []
        if busy {
            return refuseAsBusy(invitation, now: now)
        }
        invitations[id] = invitation
        actions.append(.event(session, .invitationStateChanged(stateEvent(invitation, side: "caller", reason: nil, payload: nil))))
        return EngineOutcome(result: .success(InviteResult(inviteId: id)), actions: actions)
    }

    /// The callee's half, on the node serving the callee's room: checks the callee and tells it
    /// (onInvitationReceived). Success(true): refused at once as busy (the callee is in a link
    /// and `rooms.autoRejectBusyInvitations` is on); nothing is kept then.
    public mutating func receiveRemoteInvitation(
        from remote: RemoteTarget, id: String, callerRoomId: String, callerUserId: String, calleeRoomId: String, calleeUserId: String,
        payload: String?, timeoutSeconds: Int, autoLink: Bool, now: EngineTime
    ) -> EngineOutcome<Bool> {
        func fail(_ error: RelayError) -> EngineOutcome<Bool> { EngineOutcome(result: .failure(error), actions: []) }
        guard invitations[id] == nil, RelayIdentifier.isValid(callerRoomId), RelayIdentifier.isValid(callerUserId) else {
            return fail(RelayError(.invitationInvalidArgument, "the invitation's id, room or user is not valid"))
        }
        guard rooms[calleeRoomId] != nil else { return fail(RelayError(.targetRoomNotFound, "room '\(calleeRoomId)' does not exist")) }
        guard let callee = rooms[calleeRoomId]?.members[calleeUserId], !callee.isMirror, callee.visible, callee.role == .anchor else {
            return fail(RelayError(.targetUserNotFound, "'\(calleeUserId)' is not a visible anchor in room '\(calleeRoomId)'"))
        }
        if limits.autoRejectBusyInvitations, isLinked(roomId: calleeRoomId, userId: calleeUserId) {
            return EngineOutcome(result: .success(true), actions: [])
        }
        let timeout = min(max(timeoutSeconds, 0), limits.invitationMaximumTimeoutSeconds)
        invitations[id] = Invitation(
            id: id, caller: LinkEnd(roomId: callerRoomId, userId: callerUserId, session: Self.remoteSession, remote: remote),
            callee: LinkEnd(roomId: calleeRoomId, userId: calleeUserId, session: callee.session), payload: payload,
            expiresAt: timeout == 0 ? nil : now.adding(milliseconds: Int64(timeout) * 1000), autoLink: autoLink, state: .receivedByRemote)
        let event = InvitationReceivedEvent(
            inviteId: id, roomId: calleeRoomId, fromRoomId: callerRoomId, fromUserId: callerUserId, payload: payload, timeoutSeconds: timeout,
            autoLink: autoLink)
        return EngineOutcome(result: .success(false), actions: [.event(callee.session, .invitationReceived(event))])
    }

    /// The other node's half of an invitation ended: this half ends the same way, and this
    /// node's anchor hears it.
    public mutating func remoteInvitationUpdate(_ update: RemoteInvitationUpdate, now: EngineTime) -> [EngineAction] {
        guard var invitation = invitations[update.inviteId], invitation.isPending,
            invitation.caller.remote?.node == update.node || invitation.callee.remote?.node == update.node
        else { return [] }
        var actions: [EngineAction] = []
        finish(&invitation, update.state, reason: update.reason, payload: update.payload, now: now, notifyRemote: false, into: &actions)
        invitations[update.inviteId] = invitation
        return actions
    }

    /// For an invitation accepted with autoLink whose caller is on this node: the caller's
    /// session and the link to start (across nodes).
    public func autoLink(forInvitation id: String) -> (session: SessionID, params: ConnectOtherRoomParams)? {
        guard let invitation = invitations[id], invitation.state == .accepted, invitation.autoLink, invitation.caller.remote == nil,
            invitation.callee.remote != nil
        else { return nil }
        return (
            invitation.caller.session,
            ConnectOtherRoomParams(roomId: invitation.callee.roomId, userId: invitation.callee.userId, localRoomId: invitation.caller.roomId)
        )
    }

    /// The connection to `node` was lost: pending invitations with its anchors fail
    /// (`peerUnreachable`) for this node's anchors.
    mutating func failRemoteInvitations(on node: String, into actions: inout [EngineAction]) {
        for id in invitations.keys.sorted() {
            guard var invitation = invitations[id], invitation.isPending,
                invitation.caller.remote?.node == node || invitation.callee.remote?.node == node
            else { continue }
            invitation.state = .failure
            invitation.endedAt = nil
            let side = invitation.caller.remote == nil ? "caller" : "callee"
            let session = side == "caller" ? invitation.caller.session : invitation.callee.session
            actions.append(.event(session, .invitationStateChanged(stateEvent(invitation, side: side, reason: "peerUnreachable", payload: nil))))
            actions.append(.domain(.invitationEnded(invitation.outcome(reason: "peerUnreachable"))))
            invitations[id] = invitation
        }
    }
}
