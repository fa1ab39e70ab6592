import Protocol

extension RoomEngine {
    /// Registers a transport the control plane created for a session.
    public mutating func transportCreated(session: SessionID, transportId: Int) {
        sessions[session, default: SessionState()].transports.insert(transportId)
    }

    /// The number of transports a session owns.
    public func transportCount(session: SessionID) -> Int { sessions[session]?.transports.count ?? 0 }

    /// Whether the session owns the transport.
    public func ownsTransport(session: SessionID, transportId: Int) -> Bool { owns(session, transport: transportId) }

    /// A transport closed: publications arriving on it end (`reason`, by default Other: the
    /// client closed it), sinks delivered on it go.
    public mutating func transportClosed(session: SessionID, transportId: Int, reason: UnpublishReason = .other, now: EngineTime) -> [EngineAction] {
        var actions: [EngineAction] = []
        sessions[session]?.transports.remove(transportId)
        for roomId in rooms(of: session) {
            guard case .success(var member) = member(session, in: roomId) else { continue }
            // Streams, subscriptions and kinds in a fixed order, so the actions are deterministic.
            for index in StreamIndex.allCases {
                guard let publication = member.publications[index], publication.tracks.contains(where: { $0.transportId == transportId }) else { continue }
                unpublish(roomId: roomId, userId: member.userId, streamIndex: index, reason: reason, into: &actions)
            }
            member = rooms[roomId]!.members[member.userId]!
            let keys = member.subscriptions.keys.sorted { ($0.publisherUserId, $0.streamIndex.rawValue) < ($1.publisherUserId, $1.streamIndex.rawValue) }
            for key in keys {
                var subscription = member.subscriptions[key]!
                for kind in [TrackKind.audio, .video] where subscription.sinks[kind]?.transportId == transportId {
                    removeSink(kind: kind, of: &subscription, into: &actions)
                }
                if subscription.audioTransportId == transportId { subscription.mediaType &= ~MediaType.audio }
                if subscription.videoTransportId == transportId { subscription.mediaType &= ~MediaType.video }
                member.subscriptions[key] = subscription.mediaType == 0 ? nil : subscription
            }
            if member.config.subscribeTransportId == transportId { member.config.subscribeTransportId = nil }
            rooms[roomId]!.members[member.userId] = member
        }
        return actions
    }

    /// The session's connection closed: it leaves every room (others see Dropped) and its
    /// transports are forgotten. `cause` is `.disconnected`, or `.serverShutdown` when the relay
    /// closed it while draining. Returns the actions and the transports the caller must close.
    public mutating func disconnect(session: SessionID, cause: DepartureReason = .disconnected, now: EngineTime) -> (actions: [EngineAction], transports: [Int]) {
        var actions: [EngineAction] = []
        for roomId in rooms(of: session) {
            guard let userId = userId(of: session, roomId: roomId) else { continue }
            removeMember(roomId: roomId, userId: userId, leaveReason: .dropped, unpublishReason: .clientDisconnected, exit: nil, departure: cause, into: &actions)
        }
        let transports = sessions[session]?.transports.sorted() ?? []
        sessions[session] = nil
        return (actions, transports)
    }
}
