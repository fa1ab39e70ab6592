public import Protocol

extension RoomEngine {
    /// Registers a transport the control plane created for a session. A WebRTC transport that
    /// receives has its SDP negotiated here (mids, payload types, retransmission streams).
    ///
    /// - Parameter retransmissionStreams: an SRTP transport whose video sinks each get a
    ///   retransmission stream (one that stamps transport-wide numbers).
    public mutating func transportCreated(session: SessionID, transportId: Int, kind: TransportKind = .srtp, retransmissionStreams: Bool = false) {
        sessions[session, default: SessionState()].transports.insert(transportId)
        if retransmissionStreams && kind == .srtp { retransmissionStreamTransports.insert(transportId) }
        transportOwners[transportId] = session
        if kind == .webRTC { negotiations[transportId] = SubscriberNegotiation(session: session) }
    }

    /// A receiving WebRTC transport whose client offers (a WHEP player): its mids and payload
    /// types are the player's, and the relay never offers on it.
    public mutating func adoptPlayerLayout(transportId: Int, layout: PlayerLayout) {
        negotiations[transportId]?.player = layout
    }

    /// The client answered a subscription offer on a WebRTC transport: its video tracks that
    /// became active restart at a keyframe, and each sink retransmits as the answer allows.
    public mutating func subscriptionAnswered(transportId: Int, facts: SubscriptionAnswerFacts) -> [EngineAction] {
        guard var negotiation = negotiations[transportId] else { return [] }
        let (media, binds) = negotiation.answered(facts)
        negotiations[transportId] = negotiation
        var actions = media.map(EngineAction.media)
        for bind in binds { self.bind(sink: bind.sink, to: bind.source, switching: bind.switching, into: &actions) }
        return actions
    }

    /// Whether a token the session joined a room with vouches for the media addresses it names.
    public func vouchesForMediaAddress(session: SessionID) -> Bool {
        rooms(of: session).contains { roomId in
            rooms[roomId]?.members.values.contains { $0.session == session && !$0.isMirror && $0.grants.mediaAddress } ?? false
        }
    }

    /// The number of transports a session owns.
    public func transportCount(session: SessionID) -> Int { sessions[session]?.transports.count ?? 0 }

    /// Whether the session owns the transport.
    public func ownsTransport(session: SessionID, transportId: Int) -> Bool { owns(session, transport: transportId) }

    /// A transport closed: publications arriving on it end (`reason`, by default Other: the
    /// client closed it), sinks delivered on it go, and then the transport itself.
    public mutating func transportClosed(session: SessionID, transportId: Int, reason: UnpublishReason = .other, now: EngineTime) -> [EngineAction] {
        var actions: [EngineAction] = []
        guard sessions[session]?.transports.remove(transportId) != nil else { return [] }
        // Nothing more is offered on it: its sinks go without a renegotiation.
        negotiations[transportId] = nil
        ridExtensions[transportId] = nil
        retransmissionStreamTransports.remove(transportId)
        transportOwners[transportId] = nil
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
        actions.append(.media(.closeTransport(transportId)))
        return actions
    }

    /// The session's connection closed: it leaves every room (others see Dropped) and its
    /// transports close, after everything on them. `cause` is `.disconnected`, or
    /// `.serverShutdown` when the relay closed it while draining. Returns the actions and the
    /// transports that close (the actions close them).
    public mutating func disconnect(session: SessionID, cause: DepartureReason = .disconnected, now: EngineTime) -> (actions: [EngineAction], transports: [Int])
    {
        var actions: [EngineAction] = []
        let transports = sessions[session]?.transports.sorted() ?? []
        // Its transports offer nothing more: their sinks go without a renegotiation.
        for transportId in transports {
            negotiations[transportId] = nil
            ridExtensions[transportId] = nil
            retransmissionStreamTransports.remove(transportId)
            transportOwners[transportId] = nil
        }
        for roomId in rooms(of: session) {
            guard let userId = userId(of: session, roomId: roomId) else { continue }
            removeMember(
                roomId: roomId, userId: userId, leaveReason: .dropped, unpublishReason: .clientDisconnected, exit: nil, departure: cause, into: &actions)
        }
        sessions[session] = nil
        actions += transports.map { .media(.closeTransport($0)) }
        return (actions, transports)
    }
}
