public import Protocol

/// Read-only views for the admin API and webhooks, and the room server's "stop forwarding" call.
extension RoomEngine {
    /// Every forward target on the relay, ordered by source room, user and target order.
    public func forwardSnapshots() -> [ForwardSnapshot] {
        var result: [ForwardSnapshot] = []
        for (key, forward) in forwards.sorted(by: { ($0.key.roomId, $0.key.userId) < ($1.key.roomId, $1.key.userId) }) {
            for roomId in forward.order {
                guard let target = forward.targets[roomId] else { continue }
                result.append(
                    ForwardSnapshot(
                        sourceRoomId: key.roomId, userId: key.userId, targetRoomId: roomId, paused: forward.paused,
                        startedAt: target.startedAt, firstKeyframeDelivered: target.firstKeyframeReported))
            }
        }
        return result
    }

    /// Every PK link on the relay, by id.
    public func linkSnapshots() -> [LinkSnapshot] {
        links.values.sorted { $0.id < $1.id }.map(\.snapshot)
    }

    /// For a user forwarded or linked into `roomId` from another room: that room; nil for a user
    /// who joined `roomId` itself, or who is not there.
    public func forwardedFrom(roomId: String, userId: String) -> String? {
        rooms[roomId]?.members[userId]?.forwardedFrom
    }

    /// Stops a user's forwards out of `roomId` and ends its links there, as the room server asks.
    /// The user hears onForwardStreamStateChanged (Idle) for its targets; both anchors of each
    /// link hear onDisconnectOtherRoom with `linkReason`. Fails if the user is not in the room.
    /// `departure` is given when the stop is part of the user's departure (the relay shutting down).
    public mutating func stopForwardsAndLinks(
        roomId: String, userId: String, linkReason: String = "kicked", departure: DepartureReason? = nil, now: EngineTime
    ) -> EngineOutcome<EmptyResult> {
        guard let member = rooms[roomId]?.members[userId], !member.isMirror else {
            return EngineOutcome(result: .failure(RelayError(.streamNotFound, "no user '\(userId)' in room '\(roomId)'")), actions: [])
        }
        var actions: [EngineAction] = []
        let key = ForwardKey(roomId: roomId, userId: userId)
        if let forward = forwards[key] {
            let infos = stopAllTargets(key: key, departure: departure, into: &actions)
            if !infos.isEmpty {
                actions.append(
                    .event(forward.session, .forwardStreamStateChanged(ForwardStreamStateChangedEvent(roomId: roomId, userId: userId, infos: infos))))
            }
        }
        for link in links.values.sorted(by: { $0.id < $1.id }) where link.involves(roomId: roomId, userId: userId) {
            endLink(link.id, reason: linkReason, into: &actions)
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }
}
