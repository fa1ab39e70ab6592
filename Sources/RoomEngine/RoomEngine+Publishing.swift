public import Protocol

extension RoomEngine {
    /// Codecs the relay forwards, by kind, lowercased.
    static let knownCodecs: [TrackKind: Set<String>] = [
        .audio: ["opus", "pcmu", "pcma", "g722"],
        .video: ["vp8", "vp9", "h264", "av1"],
    ]

    /// Publishes one of the caller's streams. Publishing a stream already published replaces it
    /// (the old publication ends with reason Republish). `ridExtensionId` is the header
    /// extension that names simulcast layers in a WebRTC publisher's packets (from its offer).
    public mutating func publish(
        session: SessionID, params: PublishStreamParams, ridExtensionId: UInt8? = nil, now: EngineTime
    ) -> EngineOutcome<PublishStreamResult> {
        let member: Member
        switch self.member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): member = found
        }
        if let error = validatePublish(member: member, session: session, params: params, roomId: params.roomId) {
            return EngineOutcome(result: .failure(error), actions: [])
        }
        var actions: [EngineAction] = []
        let index = params.streamIndex ?? .main
        if let ridExtensionId { ridExtensions[params.transportId] = ridExtensionId }
        rooms[params.roomId]!.members[member.userId]!.declarations[index] = params
        let mediaType = startPublication(roomId: params.roomId, userId: member.userId, params: params, now: now, into: &actions)
        return EngineOutcome(result: .success(PublishStreamResult(roomId: params.roomId, streamIndex: index, mediaType: mediaType)), actions: actions)
    }

    func validatePublish(member: Member, session: SessionID, params: PublishStreamParams, roomId: String) -> RelayError? {
        if !member.grants.publish {
            if member.grants.publishExpiresAt != nil {
                return RelayError(.noPublishPermission, "the token's publish privilege has expired; call updateToken with a new token")
            }
            return RelayError(.noPublishPermission, "the token has no publish grant")
        }
        if member.role != .anchor { return RelayError(.callerIsAudience, "audience members cannot publish; switchRole to anchor first") }
        if !member.visible { return RelayError(.invisibleCannotPublish, "invisible users cannot publish; setUserVisibility(true) first") }
        let index = params.streamIndex ?? .main
        if member.publications[index] == nil, let room = rooms[roomId], member.publications.isEmpty,
            room.publisherCount >= limits.maximumPublishersPerRoom
        {
            return RelayError(.overPublishLimit, "room '\(roomId)' has reached its limit of \(limits.maximumPublishersPerRoom) publishers")
        }
        if params.tracks.isEmpty { return RelayError(.invalidParams, "tracks must name at least one track") }
        var layers = Set<[Int]>()
        var ssrcsByTransport = Set<[UInt64]>()
        for (position, track) in params.tracks.enumerated() {
            let transport = track.transportId ?? params.transportId
            if !owns(session, transport: transport) {
                return RelayError(.transportNotFound, "tracks[\(position)]: transport \(transport) is not a transport of this connection")
            }
            if track.videoStreamType != nil, track.kind != .video {
                return RelayError(.invalidParams, "tracks[\(position)].videoStreamType is for video tracks only")
            }
            let layer = track.videoStreamType ?? .big
            if !layers.insert([track.kind == .audio ? 0 : 1, layer.rawValue]).inserted {
                let what = track.kind == .audio ? "audio track" : "\(layer.name) video track"
                return RelayError(.invalidParams, "tracks[\(position)]: more than one \(what)")
            }
            if track.ssrc == 0 && track.rid == nil { return RelayError(.invalidParams, "tracks[\(position)].ssrc must not be 0") }
            if !(0...127).contains(track.payloadType) { return RelayError(.invalidParams, "tracks[\(position)].payloadType must be 0-127") }
            if !(1...200_000).contains(track.clockRate) { return RelayError(.invalidParams, "tracks[\(position)].clockRate must be 1-200000") }
            if let channels = track.channels, !(1...8).contains(channels) { return RelayError(.invalidParams, "tracks[\(position)].channels must be 1-8") }
            if let id = track.audioLevelExtensionId {
                if track.kind != .audio { return RelayError(.invalidParams, "tracks[\(position)].audioLevelExtensionId is for audio tracks only") }
                if !(1...255).contains(id) { return RelayError(.invalidParams, "tracks[\(position)].audioLevelExtensionId must be 1-255") }
            }
            if !(Self.knownCodecs[track.kind]?.contains(track.codec.lowercased()) ?? false) {
                return RelayError(.unsupported, "tracks[\(position)]: codec '\(track.codec)' is not supported for \(track.kind.rawValue)")
            }
            if (track.rtxSSRC == nil) != (track.rtxPayloadType == nil) {
                return RelayError(.invalidParams, "tracks[\(position)]: rtxSSRC and rtxPayloadType go together")
            }
            if let rtxSSRC = track.rtxSSRC, let rtxPayloadType = track.rtxPayloadType {
                if track.kind != .video { return RelayError(.invalidParams, "tracks[\(position)].rtxSSRC is for video tracks only") }
                if rtxSSRC == 0 || rtxSSRC == track.ssrc {
                    return RelayError(.invalidParams, "tracks[\(position)].rtxSSRC must not be 0 or the track's own SSRC")
                }
                if !(0...127).contains(rtxPayloadType) || rtxPayloadType == track.payloadType {
                    return RelayError(.invalidParams, "tracks[\(position)].rtxPayloadType must be 0-127 and differ from payloadType")
                }
                if !ssrcsByTransport.insert([UInt64(transport), UInt64(rtxSSRC)]).inserted {
                    return RelayError(.invalidParams, "tracks[\(position)]: SSRC \(rtxSSRC) used twice on transport \(transport)")
                }
            }
            if track.ssrc != 0, !ssrcsByTransport.insert([UInt64(transport), UInt64(track.ssrc)]).inserted {
                return RelayError(.invalidParams, "tracks[\(position)]: SSRC \(track.ssrc) used twice on transport \(transport)")
            }
            if track.ssrc != 0, let clash = ssrcInUse(transport: transport, ssrc: track.ssrc),
                clash != SourceLocation(roomId: roomId, userId: member.userId, streamIndex: index)
            {
                return RelayError(.invalidParams, "tracks[\(position)]: SSRC \(track.ssrc) is already published on transport \(transport)")
            }
        }
        return validateVideoLayers(params.tracks)
    }

    /// A small or medium video track must come with a big one it can stand in for: the same
    /// codec and payload type, so a subscriber switched between them sees one continuous stream.
    func validateVideoLayers(_ tracks: [TrackDescription]) -> RelayError? {
        for (position, layer) in tracks.enumerated() where layer.kind == .video && (layer.videoStreamType ?? .big) != .big {
            let name = (layer.videoStreamType ?? .big).name
            guard let big = tracks.first(where: { $0.kind == .video && ($0.videoStreamType ?? .big) == .big }) else {
                return RelayError(.invalidParams, "tracks[\(position)]: a \(name) video track needs a big video track in the same stream")
            }
            if big.codec.lowercased() != layer.codec.lowercased() || big.payloadType != layer.payloadType || big.clockRate != layer.clockRate {
                return RelayError(.invalidParams, "tracks[\(position)]: the \(name) video track must use the big track's codec, payload type and clock rate")
            }
        }
        return nil
    }

    func ssrcInUse(transport: Int, ssrc: UInt32) -> SourceLocation? {
        for (id, location) in sources {
            guard let track = rooms[location.roomId]?.members[location.userId]?.publications[location.streamIndex]?.tracks.first(where: { $0.id == id }) else {
                continue
            }
            if track.transportId == transport, track.ssrc == ssrc { return location }
        }
        return nil
    }

    /// Creates the publication's sources, tells the room, binds subscribers and follows into
    /// every room the user is forwarded or linked into. Returns the media type.
    mutating func startPublication(roomId: String, userId: String, params: PublishStreamParams, now: EngineTime, into actions: inout [EngineAction]) -> Int {
        let index = params.streamIndex ?? .main
        if rooms[roomId]!.members[userId]!.publications[index] != nil {
            unpublish(roomId: roomId, userId: userId, streamIndex: index, reason: .republish, into: &actions)
        }
        var tracks: [SourceTrack] = []
        for description in params.tracks {
            var track = SourceTrack(
                id: allocateTrackId(), transportId: description.transportId ?? params.transportId, ssrc: description.ssrc,
                kind: description.kind, codec: description.codec, clockRate: description.clockRate, payloadType: description.payloadType,
                audioLevelExtensionId: description.audioLevelExtensionId.flatMap { UInt8(exactly: $0) },
                videoStreamType: description.kind == .video ? description.videoStreamType ?? .big : .big)
            track.rid = description.rid
            if description.rid != nil { track.ridExtensionId = ridExtensions[track.transportId] }
            track.rtxSSRC = description.rtxSSRC
            track.rtxPayloadType = description.rtxPayloadType
            tracks.append(track)
            sources[track.id] = SourceLocation(roomId: roomId, userId: userId, streamIndex: index)
            actions.append(.media(.addSource(track)))
        }
        let publication = Publication(streamIndex: index, tracks: tracks, descriptions: params.tracks, lastMediaAt: now)
        installPublication(publication, roomId: roomId, userId: userId, into: &actions)
        syncMirrors(of: roomId, userId: userId, reason: .republish, into: &actions)
        return publication.mediaType
    }

    /// Puts a publication (a member's own, or a mirror's copy) into a room: the room hears
    /// onUserPublishStream, existing subscriptions bind, auto-subscribers subscribe.
    mutating func installPublication(_ publication: Publication, roomId: String, userId: String, into actions: inout [EngineAction]) {
        let index = publication.streamIndex
        rooms[roomId]!.members[userId]!.publications[index] = publication
        if !rooms[roomId]!.members[userId]!.isMirror {
            actions.append(.domain(.streamPublished(StreamChange(roomId: roomId, userId: userId, streamIndex: index, mediaType: publication.mediaType))))
        }
        broadcast(
            .userPublishStream(UserPublishStreamEvent(roomId: roomId, userId: userId, streamIndex: index, mediaType: publication.mediaType)), in: roomId,
            except: userId, into: &actions)
        for other in rooms[roomId]!.orderedMembers where other.userId != userId && !other.isMirror {
            let key = SubscriptionKey(publisherUserId: userId, streamIndex: index)
            if other.subscriptions[key] != nil {
                bindSubscription(roomId: roomId, subscriberId: other.userId, key: key, into: &actions)
            } else {
                autoSubscribe(roomId: roomId, subscriberId: other.userId, publisherId: userId, streamIndex: index, into: &actions)
            }
        }
    }

    /// Unpublishes one of the caller's streams (reason Unpublish).
    public mutating func unpublish(session: SessionID, params: StreamParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        switch member(session, in: params.roomId) {
        case .failure(let error):
            return EngineOutcome(result: .failure(error), actions: [])
        case .success(let member):
            let index = params.streamIndex ?? .main
            guard member.publications[index] != nil else {
                return EngineOutcome(result: .failure(RelayError(.wrongState, "stream '\(index.rawValue)' is not published")), actions: [])
            }
            var actions: [EngineAction] = []
            rooms[params.roomId]!.members[member.userId]!.declarations[index] = nil
            unpublish(roomId: params.roomId, userId: member.userId, streamIndex: index, reason: .unpublish, into: &actions)
            return EngineOutcome(result: .success(EmptyResult()), actions: actions)
        }
    }

    /// Ends a publication: subscribers' sinks are unbound (kept for a republish), the sources go,
    /// the room hears onUserUnpublishStream, and every mirror of the user follows. `departure` is
    /// set when the stream ends because its user leaves the room.
    mutating func unpublish(
        roomId: String, userId: String, streamIndex: StreamIndex, reason: UnpublishReason, departure: DepartureReason? = nil, into actions: inout [EngineAction]
    ) {
        guard let member = rooms[roomId]?.members[userId], let publication = member.publications[streamIndex] else { return }
        let key = SubscriptionKey(publisherUserId: userId, streamIndex: streamIndex)
        for other in rooms[roomId]!.orderedMembers where other.subscriptions[key] != nil {
            var subscription = other.subscriptions[key]!
            for kind in [TrackKind.audio, .video] where subscription.bindings[kind] != nil {
                let sink = subscription.sinks[kind]!
                unbind(sink: sink.id, on: sink.transportId, into: &actions)
                subscription.bindings[kind] = nil
            }
            rooms[roomId]!.members[other.userId]!.subscriptions[key] = subscription
        }
        rooms[roomId]!.members[userId]!.publications[streamIndex] = nil
        if member.remoteNode != nil {
            for track in publication.tracks { releaseRemoteSource(track.id, into: &actions) }
        } else if !member.isMirror {
            // Mirrors first, so target rooms unbind before the source disappears.
            syncMirrors(of: roomId, userId: userId, reason: reason, into: &actions)
            for track in publication.tracks {
                actions.append(.media(.removeSource(track.id)))
                sources[track.id] = nil
            }
        }
        broadcast(
            .userUnpublishStream(
                UserUnpublishStreamEvent(roomId: roomId, userId: userId, streamIndex: streamIndex, mediaType: publication.mediaType, reason: reason)),
            in: roomId, except: userId, into: &actions)
        if !member.isMirror {
            actions.append(
                .domain(
                    .streamUnpublished(
                        StreamChange(
                            roomId: roomId, userId: userId, streamIndex: streamIndex, mediaType: publication.mediaType, reason: reason, departure: departure))))
        }
    }

    /// Re-publishes the declared streams of a member that just became a visible anchor.
    mutating func autoRepublish(roomId: String, userId: String, now: EngineTime, into actions: inout [EngineAction]) {
        guard let member = rooms[roomId]?.members[userId], member.autoPublish, member.canPublish else { return }
        for index in StreamIndex.allCases {
            guard let declaration = member.declarations[index], member.publications[index] == nil else { continue }
            if validatePublish(member: member, session: member.session, params: declaration, roomId: roomId) == nil {
                _ = startPublication(roomId: roomId, userId: userId, params: declaration, now: now, into: &actions)
            }
        }
    }
}
