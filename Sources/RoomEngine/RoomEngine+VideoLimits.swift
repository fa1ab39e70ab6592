public import Protocol

/// The layer allocator's way into the engine: which subscriptions it may limit, and the limits
/// it decides, applied at the next keyframe like any other layer switch.
extension RoomEngine {
    /// Every subscription that delivers (or would deliver, but for its limit) a publisher's video.
    public func videoAllocationCandidates() -> [VideoAllocationCandidate] {
        var candidates: [VideoAllocationCandidate] = []
        for (roomId, room) in rooms {
            for member in room.members.values where !member.isMirror {
                appendVideoAllocationCandidates(of: member, in: room, roomId: roomId, onTransport: nil, to: &candidates)
            }
        }
        return candidates
    }

    /// The video subscriptions delivered on one transport, as ``videoAllocationCandidates()``
    /// gives them: found through the transport's connection, without a walk over every room.
    public func videoAllocationCandidates(onTransport transportId: Int) -> [VideoAllocationCandidate] {
        guard let session = transportOwners[transportId], let state = sessions[session] else { return [] }
        var candidates: [VideoAllocationCandidate] = []
        for roomId in state.rooms.sorted() {
            guard let room = rooms[roomId], let member = room.members.values.first(where: { $0.session == session && !$0.isMirror }) else { continue }
            appendVideoAllocationCandidates(of: member, in: room, roomId: roomId, onTransport: transportId, to: &candidates)
        }
        return candidates
    }

    /// Appends `member`'s video subscriptions (those on `transportId` only, when given).
    private func appendVideoAllocationCandidates(
        of member: Member, in room: Room, roomId: String, onTransport transportId: Int?, to candidates: inout [VideoAllocationCandidate]
    ) {
        for (key, subscription) in member.subscriptions where subscription.wants(.video) && subscription.sinks[.video] != nil {
            if let transportId, subscription.videoTransportId != transportId { continue }
            guard let publication = room.members[key.publisherUserId]?.publications[key.streamIndex],
                let big = publication.track(of: .video)
            else { continue }
            let small = publication.video(.small)
            let audio =
                subscription.wants(.audio) && subscription.audioTransportId == subscription.videoTransportId
                ? subscription.bindings[.audio] : nil
            candidates.append(
                VideoAllocationCandidate(
                    ref: SubscriptionRef(roomId: roomId, subscriberId: member.userId, publisherUserId: key.publisherUserId, streamIndex: key.streamIndex),
                    session: member.session, transportId: subscription.videoTransportId, audioSourceId: audio, requested: subscription.videoStreamType,
                    bigSourceId: big.id, smallSourceId: small?.id, mediumSourceId: publication.video(.medium)?.id, limit: subscription.bandwidthLimit))
        }
    }

    /// Limits one subscription's video to what its subscriber's downlink carries. The subscriber
    /// hears `onSimulcastSubscribeFallback` (and `onStreamSubscribed`) when what it receives changes.
    public mutating func limitVideo(_ ref: SubscriptionRef, to limit: VideoBandwidthLimit, reason: FallbackOrRecoverReason, estimateBps: Int?) -> [EngineAction]
    {
        let key = SubscriptionKey(publisherUserId: ref.publisherUserId, streamIndex: ref.streamIndex)
        guard let subscription = rooms[ref.roomId]?.members[ref.subscriberId]?.subscriptions[key], subscription.bandwidthLimit != limit else { return [] }
        rooms[ref.roomId]!.members[ref.subscriberId]!.subscriptions[key]!.bandwidthLimit = limit
        var actions: [EngineAction] = []
        bindSubscription(roomId: ref.roomId, subscriberId: ref.subscriberId, key: key, reason: reason, estimateBps: estimateBps, into: &actions)
        return actions
    }
}
