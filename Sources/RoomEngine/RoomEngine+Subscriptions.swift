public import Protocol

extension RoomEngine {
    /// Subscribes the caller to another user's stream in the same room.
    public mutating func subscribe(session: SessionID, params: SubscribeStreamParams, now: EngineTime) -> EngineOutcome<SubscribeStreamResult> {
        let index = params.streamIndex ?? .main
        let subscriber: Member
        switch member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): subscriber = found
        }
        func failure(_ state: SubscribeState, _ error: RelayError) -> EngineOutcome<SubscribeStreamResult> {
            let data = SubscribeStreamResult(roomId: params.roomId, userId: params.userId, streamIndex: index, state: state, tracks: [])
            return EngineOutcome(result: .failure(error), actions: [.event(session, .streamSubscribed(data))])
        }
        if !subscriber.grants.subscribe {
            return EngineOutcome(result: .failure(RelayError(.noSubscribePermission, "the token has no subscribe grant")), actions: [])
        }
        guard let transport = params.transportId else {
            return EngineOutcome(result: .failure(RelayError(.invalidParams, "transportId is required")), actions: [])
        }
        for candidate in [transport, params.audioTransportId, params.videoTransportId].compactMap({ $0 }) where !owns(session, transport: candidate) {
            return EngineOutcome(result: .failure(RelayError(.transportNotFound, "transport \(candidate) is not a transport of this connection")), actions: [])
        }
        let mediaType = params.mediaType ?? MediaType.audioAndVideo
        if !(1...3).contains(mediaType) {
            return EngineOutcome(result: .failure(RelayError(.invalidParams, "mediaType must be 1 (audio), 2 (video) or 3 (both)")), actions: [])
        }
        if params.userId == subscriber.userId {
            return EngineOutcome(result: .failure(RelayError(.invalidParams, "cannot subscribe to your own stream")), actions: [])
        }
        guard let publisher = rooms[params.roomId]?.members[params.userId], publisher.visible else {
            return failure(.failedNotInRoom, RelayError(.streamNotFound, "no visible user '\(params.userId)' in room '\(params.roomId)'"))
        }
        guard publisher.publications[index] != nil else {
            return failure(.failedStreamNotFound, RelayError(.streamNotFound, "user '\(params.userId)' has not published stream '\(index.rawValue)'"))
        }
        let key = SubscriptionKey(publisherUserId: params.userId, streamIndex: index)
        if subscriber.subscriptions[key] == nil, subscriber.subscriptions.count >= limits.maximumSubscriptionsPerUser {
            return failure(.failedOverLimit, RelayError(.overSubscribeLimit, "at the limit of \(limits.maximumSubscriptionsPerUser) subscriptions"))
        }
        var actions: [EngineAction] = []
        if var existing = subscriber.subscriptions[key] {
            for kind in [TrackKind.audio, .video] where existing.sinks[kind] != nil {
                removeSink(kind: kind, of: &existing, into: &actions)
            }
            rooms[params.roomId]!.members[subscriber.userId]!.subscriptions[key] = nil
        }
        let subscription = Subscription(
            key: key, mediaType: mediaType, audioTransportId: params.audioTransportId ?? transport,
            videoTransportId: params.videoTransportId ?? transport, videoStreamType: params.videoStreamType ?? .big)
        rooms[params.roomId]!.members[subscriber.userId]!.subscriptions[key] = subscription
        let result = bindSubscription(roomId: params.roomId, subscriberId: subscriber.userId, key: key, into: &actions)
        return EngineOutcome(result: .success(result), actions: actions)
    }

    /// Chooses the video encoding of a subscribed dual-stream publisher (big or small). The
    /// switch happens at a keyframe of the new encoding, continuing the subscriber's SSRC,
    /// sequence numbers and timestamps. Small falls back to big while no small stream is
    /// published, and moves to small when one appears. The result (and an onStreamSubscribed
    /// event) names the encoding being delivered.
    public mutating func setRemoteVideoStreamType(
        session: SessionID, params: SetRemoteVideoStreamTypeParams, now: EngineTime
    ) -> EngineOutcome<SubscribeStreamResult> {
        let subscriber: Member
        switch member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): subscriber = found
        }
        let key = SubscriptionKey(publisherUserId: params.userId, streamIndex: params.streamIndex ?? .main)
        guard subscriber.subscriptions[key] != nil else {
            return EngineOutcome(
                result: .failure(RelayError(.wrongState, "not subscribed to '\(params.userId)' stream '\(key.streamIndex.rawValue)'")), actions: [])
        }
        rooms[params.roomId]!.members[subscriber.userId]!.subscriptions[key]!.videoStreamType = params.streamType
        var actions: [EngineAction] = []
        let result = bindSubscription(roomId: params.roomId, subscriberId: subscriber.userId, key: key, reason: .subscriberRequest, into: &actions)
        return EngineOutcome(result: .success(result), actions: actions)
    }

    /// Ends (part of) a subscription. `mediaType` narrows which tracks end; default all.
    public mutating func unsubscribe(session: SessionID, params: SubscribeStreamParams, now: EngineTime) -> EngineOutcome<EmptyResult> {
        let subscriber: Member
        switch member(session, in: params.roomId) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): subscriber = found
        }
        let key = SubscriptionKey(publisherUserId: params.userId, streamIndex: params.streamIndex ?? .main)
        guard var subscription = subscriber.subscriptions[key] else {
            return EngineOutcome(
                result: .failure(RelayError(.wrongState, "not subscribed to '\(params.userId)' stream '\(key.streamIndex.rawValue)'")), actions: [])
        }
        var actions: [EngineAction] = []
        let removing = params.mediaType ?? MediaType.audioAndVideo
        for kind in [TrackKind.audio, .video] where removing & kind.mediaTypeBit != 0 {
            if subscription.sinks[kind] != nil { removeSink(kind: kind, of: &subscription, into: &actions) }
            subscription.mediaType &= ~kind.mediaTypeBit
        }
        rooms[params.roomId]!.members[subscriber.userId]!.subscriptions[key] = subscription.mediaType == 0 ? nil : subscription
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Subscribes a member automatically when its room config asks for it and it has a
    /// subscribe transport.
    mutating func autoSubscribe(roomId: String, subscriberId: String, publisherId: String, streamIndex: StreamIndex, into actions: inout [EngineAction]) {
        guard let subscriber = rooms[roomId]?.members[subscriberId], let transport = subscriber.config.subscribeTransportId,
            subscriber.grants.subscribe, subscriber.subscriptions.count < limits.maximumSubscriptionsPerUser
        else { return }
        let mediaType = (subscriber.autoSubscribeAudio ? MediaType.audio : 0) | (subscriber.autoSubscribeVideo ? MediaType.video : 0)
        guard mediaType != 0 else { return }
        let key = SubscriptionKey(publisherUserId: publisherId, streamIndex: streamIndex)
        guard subscriber.subscriptions[key] == nil else { return }
        rooms[roomId]!.members[subscriberId]!.subscriptions[key] = Subscription(
            key: key, mediaType: mediaType, audioTransportId: transport, videoTransportId: transport,
            videoStreamType: subscriber.config.autoSubscribeVideoStreamType ?? .big)
        bindSubscription(roomId: roomId, subscriberId: subscriberId, key: key, into: &actions)
    }

    /// Binds a subscription's sinks to the publisher's current tracks (creating sinks as needed)
    /// and tells the subscriber what it will receive.
    @discardableResult
    mutating func bindSubscription(
        roomId: String, subscriberId: String, key: SubscriptionKey, reason: FallbackOrRecoverReason = .publisherChange, estimateBps: Int? = nil,
        into actions: inout [EngineAction]
    ) -> SubscribeStreamResult {
        var subscription = rooms[roomId]!.members[subscriberId]!.subscriptions[key]!
        let session = rooms[roomId]!.members[subscriberId]!.session
        let publication = rooms[roomId]?.members[key.publisherUserId]?.publications[key.streamIndex]
        var tracks: [SubscribedTrack] = []
        var renegotiate: Set<Int> = []
        var delivered: DeliveredVideo?
        // The allocator's limit lowers what the subscriber asked for, never raises it.
        let preferred: VideoStreamType =
            switch subscription.bandwidthLimit {
            case .none: subscription.videoStreamType
            case .medium: .lower(subscription.videoStreamType, .medium)
            case .small, .paused: .small
            }
        for kind in [TrackKind.audio, .video] where subscription.wants(kind) {
            guard let publication, let source = publication.track(of: kind, preferring: preferred),
                let description = publication.description(of: kind)
            else { continue }
            var sink: SinkTrack
            if let existing = subscription.sinks[kind] {
                sink = existing
            } else {
                sink = SinkTrack(
                    id: allocateTrackId(), transportId: subscription.transportId(for: kind), outputSSRC: ssrcs.next(), kind: kind, clockRate: source.clockRate)
                subscription.sinks[kind] = sink
                actions.append(.media(.addSink(sink)))
            }
            if kind == .video, sink.rtxSSRC == nil, retransmissionStreamTransports.contains(sink.transportId) {
                // Drawn once per sink: its retransmission stream stays across layers and republishes.
                sink.rtxSSRC = ssrcs.next()
                sink.rtxPayloadType = Self.retransmissionPayloadType(for: description, in: publication)
                subscription.sinks[kind] = sink
                actions.append(.media(.setSinkRetransmission(sink: sink.id, ssrc: sink.rtxSSRC!, payloadType: sink.rtxPayloadType!)))
            }
            var track = SubscribedTrack(
                kind: kind, ssrc: sink.outputSSRC, payloadType: source.payloadType, codec: source.codec, clockRate: source.clockRate,
                channels: description.channels, parameters: description.parameters, transportId: sink.transportId,
                videoStreamType: kind == .video ? source.videoStreamType : nil)
            track.rtxSSRC = sink.rtxSSRC
            track.rtxPayloadType = sink.rtxPayloadType.map(Int.init)
            // A WebRTC subscriber: its SDP names the sink's mid and payload types, and the media
            // plane sends what the SDP says (a player's track it cannot take is never sent).
            if negotiations[sink.transportId] != nil,
                let (offered, rewrite) = negotiations[sink.transportId]!.describe(
                    track, publisher: key.publisherUserId, streamIndex: key.streamIndex, sinkId: sink.id, ssrcs: &ssrcs)
            {
                if let rewrite { actions.append(.media(.setSinkPayloadType(sink: sink.id, payloadType: rewrite))) }
                if negotiations[sink.transportId]!.store(offered) { renegotiate.insert(sink.transportId) }
            }
            let paused = kind == .video && subscription.bandwidthLimit == .paused
            if kind == .video { delivered = DeliveredVideo(streamType: source.videoStreamType, enabled: !paused) }
            if paused {
                // Audio only: the sink keeps its sequence state for when video resumes.
                if subscription.bindings[kind] != nil {
                    unbind(sink: sink.id, on: sink.transportId, into: &actions)
                    subscription.bindings[kind] = nil
                }
            } else if let bound = subscription.bindings[kind], bound != source.id {
                subscription.bindings[kind] = source.id
                // Another encoding of the same video: switch at its keyframe without a pause.
                let sameVideo = publication.tracks.contains { $0.id == bound }
                bind(sink: sink.id, on: sink.transportId, to: source.id, switching: sameVideo, into: &actions)
            } else if subscription.bindings[kind] == nil {
                subscription.bindings[kind] = source.id
                bind(sink: sink.id, on: sink.transportId, to: source.id, switching: false, into: &actions)
            }
            tracks.append(track)
        }
        if let before = subscription.deliveredVideo, let after = delivered, before != after {
            let change = SimulcastSubscribeFallbackEvent(
                roomId: roomId, userId: key.publisherUserId, streamIndex: key.streamIndex, beforeVideoStreamType: before.streamType,
                afterVideoStreamType: after.streamType, beforeVideoEnabled: before.enabled, afterVideoEnabled: after.enabled, reason: reason,
                estimateBps: estimateBps)
            actions.append(.event(session, .simulcastSubscribeFallback(change)))
        }
        subscription.deliveredVideo = delivered
        rooms[roomId]!.members[subscriberId]!.subscriptions[key] = subscription
        let result = SubscribeStreamResult(roomId: roomId, userId: key.publisherUserId, streamIndex: key.streamIndex, state: .success, tracks: tracks)
        actions.append(.event(session, .streamSubscribed(result)))
        for transportId in renegotiate.sorted() { offerTracks(of: transportId, into: &actions) }
        return result
    }

    /// Deletes one sink of a subscription (unbinding it first).
    mutating func removeSink(kind: TrackKind, of subscription: inout Subscription, into actions: inout [EngineAction]) {
        guard let sink = subscription.sinks[kind] else { return }
        if subscription.bindings[kind] != nil {
            unbind(sink: sink.id, on: sink.transportId, into: &actions)
            subscription.bindings[kind] = nil
        }
        removeSink(sink, into: &actions)
        subscription.sinks[kind] = nil
    }

    /// Ends every subscription other members hold to a publisher's streams.
    mutating func dropSubscriptions(roomId: String, toPublisher publisherId: String, into actions: inout [EngineAction]) {
        guard let room = rooms[roomId] else { return }
        for other in room.orderedMembers where other.userId != publisherId {
            for index in StreamIndex.allCases {
                let key = SubscriptionKey(publisherUserId: publisherId, streamIndex: index)
                guard var subscription = other.subscriptions[key] else { continue }
                for kind in [TrackKind.audio, .video] where subscription.sinks[kind] != nil {
                    removeSink(kind: kind, of: &subscription, into: &actions)
                }
                rooms[roomId]!.members[other.userId]!.subscriptions[key] = nil
            }
        }
    }
}
