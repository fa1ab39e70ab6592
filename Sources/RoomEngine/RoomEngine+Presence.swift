public import Protocol

extension RoomEngine {
    /// Turns the caller visible or invisible in a room.
    ///
    /// Visible to invisible: its streams are unpublished (Unpublish), subscriptions to it end and
    /// others see it leave (SwitchToInvisible). Invisible to visible: others see it join, and an
    /// anchor with autoPublish re-publishes its declared streams. The user itself receives
    /// onUserVisibilityChanged either way.
    public mutating func setVisibility(session: SessionID, params: SetUserVisibilityParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let member: Member
        switch self.member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        let roomId = params.roomId
        var actions: [EngineAction] = []
        func answer(_ errorCode: Int, visible: Bool) {
            actions.append(.event(session, .userVisibilityChanged(UserVisibilityChangedEvent(roomId: roomId, visible: visible, errorCode: errorCode))))
        }
        if params.visible == member.visible {
            answer(0, visible: member.visible)
            return EngineOutcome(result: .success(EmptyResult()), actions: actions)
        }
        if params.visible {
            if member.grants.hidden {
                answer(1, visible: false)
                return EngineOutcome(result: .failure(RelayError(.visibilityRefused, "the token's hidden grant keeps this user invisible")), actions: actions)
            }
            if rooms[roomId]!.visibleCount >= limits.maximumVisibleUsersPerRoom {
                answer(2, visible: false)
                return EngineOutcome(result: .failure(RelayError(.visibilityRefused, "room '\(roomId)' has reached its visible-user limit")), actions: actions)
            }
            rooms[roomId]!.members[member.userId]!.visible = true
            broadcast(.userJoined(UserJoinedEvent(roomId: roomId, userId: member.userId, role: member.role)), in: roomId, except: member.userId, into: &actions)
            answer(0, visible: true)
            syncMirrors(of: roomId, userId: member.userId, reason: .unpublish, into: &actions)
            forwardEvent(.connected, roomId: roomId, userId: member.userId, into: &actions)
            autoRepublish(roomId: roomId, userId: member.userId, now: now, into: &actions)
        } else {
            for index in StreamIndex.allCases where member.publications[index] != nil {
                unpublish(roomId: roomId, userId: member.userId, streamIndex: index, reason: .unpublish, into: &actions)
            }
            dropSubscriptions(roomId: roomId, toPublisher: member.userId, into: &actions)
            rooms[roomId]!.members[member.userId]!.visible = false
            syncMirrors(of: roomId, userId: member.userId, reason: .unpublish, leaveReason: .switchToInvisible, into: &actions)
            forwardEvent(.disconnected, roomId: roomId, userId: member.userId, into: &actions)
            broadcast(
                .userLeave(UserLeaveEvent(roomId: roomId, userId: member.userId, reason: .switchToInvisible)), in: roomId, except: member.userId, into: &actions
            )
            answer(0, visible: false)
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Switches the caller's role. Anchor to audience unpublishes its streams (Unpublish);
    /// audience to anchor needs the publish grant, and re-publishes declared streams with autoPublish.
    public mutating func switchRole(session: SessionID, params: SwitchRoleParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let member: Member
        switch self.member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        var actions: [EngineAction] = []
        if params.role == .anchor, member.role != .anchor, !member.grants.publish {
            actions.append(
                .event(session, .switchRole(SwitchRoleEvent(roomId: params.roomId, role: member.role, errorCode: ErrorCode.noPublishPermission.rawValue))))
            return EngineOutcome(
                result: .failure(RelayError(.noPublishPermission, "the token has no publish grant, so the user cannot become an anchor")), actions: actions)
        }
        if params.role == .audience {
            for index in StreamIndex.allCases where member.publications[index] != nil {
                unpublish(roomId: params.roomId, userId: member.userId, streamIndex: index, reason: .unpublish, into: &actions)
            }
        }
        rooms[params.roomId]!.members[member.userId]!.role = params.role
        for node in (replicaTargets[params.roomId] ?? [:]).keys.sorted() {
            replicate(roomId: params.roomId, userId: member.userId, to: node, leaving: nil, unpublishReason: .unpublish, into: &actions)
        }
        actions.append(.event(session, .switchRole(SwitchRoleEvent(roomId: params.roomId, role: params.role, errorCode: 0))))
        if params.role != member.role {
            actions.append(.domain(.userRoleChanged(roomId: params.roomId, userId: member.userId, role: params.role, previousRole: member.role)))
        }
        if params.role == .anchor, member.role != .anchor {
            autoRepublish(roomId: params.roomId, userId: member.userId, now: now, into: &actions)
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Replaces the grants and expiry of the caller's token in a room (updateToken). Losing the
    /// publish grant unpublishes with PrivilegeTokenExpired.
    public mutating func updateToken(session: SessionID, roomId: String, grants: TokenGrants, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let member: Member
        switch self.member(session, in: roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        var actions: [EngineAction] = []
        rooms[roomId]!.members[member.userId]!.grants = grants
        rooms[roomId]!.members[member.userId]!.expiryWarned = false
        rooms[roomId]!.members[member.userId]!.publishExpiryWarned = false
        if !grants.publish {
            for index in StreamIndex.allCases where member.publications[index] != nil {
                unpublish(roomId: roomId, userId: member.userId, streamIndex: index, reason: .privilegeTokenExpired, into: &actions)
            }
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Media arrived for a source track (reported by the media plane, about once a second).
    public mutating func recordMediaActivity(sourceId: UInt32, at time: EngineTime) {
        guard let location = sources[sourceId] else { return }
        guard var publication = rooms[location.roomId]?.members[location.userId]?.publications[location.streamIndex] else { return }
        if time > publication.lastMediaAt {
            publication.lastMediaAt = time
            rooms[location.roomId]!.members[location.userId]!.publications[location.streamIndex] = publication
        }
    }

    /// Advances time: publications silent for the keep-alive period are unpublished
    /// (KeepLiveFailed); tokens near expiry are warned; expired tokens end membership.
    public mutating func tick(now: EngineTime) -> [EngineAction] {
        var actions: [EngineAction] = []
        releaseLingeringPipeDemand(now: now, into: &actions)
        for roomId in rooms.keys.sorted() {
            guard let room = rooms[roomId] else { continue }
            for member in room.orderedMembers {
                if member.isMirror {
                    if now >= member.grants.expiresAt, rooms[roomId]?.members[member.userId]?.isMirror == true {
                        endMirror(
                            roomId: roomId, userId: member.userId, forwardError: .forwardInvalidToken, linkReason: "expired", leaveReason: .dropped,
                            into: &actions)
                    }
                    continue
                }
                guard rooms[roomId]?.members[member.userId]?.isMirror == false else { continue }
                if now >= member.grants.expiresAt {
                    removeMember(
                        roomId: roomId, userId: member.userId, leaveReason: .dropped, unpublishReason: .privilegeTokenExpired,
                        exit: (.tokenExpired, .tokenExpired, "the token expired"), departure: .tokenExpired, into: &actions)
                    continue
                }
                if !member.expiryWarned, member.grants.expiresAt.milliseconds - now.milliseconds <= limits.tokenExpiryWarningMilliseconds {
                    rooms[roomId]!.members[member.userId]!.expiryWarned = true
                    let remaining = (member.grants.expiresAt.milliseconds - now.milliseconds + 999) / 1000
                    actions.append(
                        .event(
                            member.session,
                            .tokenWillExpire(TokenWillExpireEvent(roomId: roomId, expiresAt: member.grants.expiresAt.seconds, remainingSeconds: remaining))))
                }
                checkPublishPrivilege(roomId: roomId, member: member, now: now, into: &actions)
                for index in StreamIndex.allCases {
                    guard let publication = rooms[roomId]?.members[member.userId]?.publications[index] else { continue }
                    if now.milliseconds - publication.lastMediaAt.milliseconds >= limits.keepAliveTimeoutMilliseconds {
                        unpublish(roomId: roomId, userId: member.userId, streamIndex: index, reason: .keepLiveFailed, into: &actions)
                    }
                }
            }
        }
        expireInvitations(now: now, into: &actions)
        return actions
    }

    /// A token whose publish privilege ends before the token itself: warn 30 s before, then
    /// take the publish grant away and unpublish with PrivilegeTokenExpired; the user stays.
    mutating func checkPublishPrivilege(roomId: String, member: Member, now: EngineTime, into actions: inout [EngineAction]) {
        guard let publishExpiry = member.grants.publishExpiresAt, member.grants.publish else { return }
        if now >= publishExpiry {
            rooms[roomId]!.members[member.userId]!.grants.publish = false
            for index in StreamIndex.allCases where member.publications[index] != nil {
                unpublish(roomId: roomId, userId: member.userId, streamIndex: index, reason: .privilegeTokenExpired, into: &actions)
            }
            return
        }
        if !member.publishExpiryWarned, publishExpiry < member.grants.expiresAt,
            publishExpiry.milliseconds - now.milliseconds <= limits.tokenExpiryWarningMilliseconds
        {
            rooms[roomId]!.members[member.userId]!.publishExpiryWarned = true
            let remaining = (publishExpiry.milliseconds - now.milliseconds + 999) / 1000
            actions.append(
                .event(
                    member.session,
                    .tokenWillExpire(
                        TokenWillExpireEvent(
                            roomId: roomId, expiresAt: publishExpiry.seconds, remainingSeconds: remaining, privilege: "publish"))))
        }
    }
}
