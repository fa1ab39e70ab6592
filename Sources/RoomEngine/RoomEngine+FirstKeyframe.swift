import Protocol

/// "Time to watchable": how long a forward or link took until the forwarded user's first
/// keyframe reached a subscriber in the target room. The clouds give no such figure.
extension RoomEngine {
    /// Forward targets and link directions still waiting for their first keyframe, with the
    /// target-room sinks fed by the forwarded user's video.
    public func firstKeyframeWatches() -> [FirstKeyframeWatch] {
        var watches: [FirstKeyframeWatch] = []
        func sinks(targetRoomId: String, userId: String) -> [UInt32] {
            // A target room on another node: the first keyframe the pipe carries there.
            if let remote = remoteMirrors[ForwardKey(roomId: targetRoomId, userId: userId)] {
                return remote.trackIds.compactMap { pipeSinks[PipeSinkKey(node: remote.target.node, trackId: $0)]?.sink }.filter { $0.kind == .video }.map(\.id)
                    .sorted()
            }
            guard let room = rooms[targetRoomId] else { return [] }
            var ids: [UInt32] = []
            for member in room.orderedMembers where !member.isMirror {
                for (key, subscription) in member.subscriptions where key.publisherUserId == userId {
                    if let sink = subscription.sinks[.video] { ids.append(sink.id) }
                }
            }
            return ids.sorted()
        }
        for (key, forward) in forwards.sorted(by: { ($0.key.roomId, $0.key.userId) < ($1.key.roomId, $1.key.userId) }) where !forward.paused {
            for roomId in forward.order {
                guard let target = forward.targets[roomId], !target.firstKeyframeReported else { continue }
                watches.append(
                    FirstKeyframeWatch(
                        session: forward.session, sourceRoomId: key.roomId, userId: key.userId, targetRoomId: roomId, startedAt: target.startedAt,
                        via: "forward", sinkIds: sinks(targetRoomId: roomId, userId: key.userId), linkId: nil))
            }
        }
        for link in links.values.sorted(by: { $0.id < $1.id }) {
            for (source, target) in [(link.caller, link.peer), (link.peer, link.caller)] where !target.firstKeyframeReported {
                watches.append(
                    FirstKeyframeWatch(
                        session: source.session, sourceRoomId: source.roomId, userId: source.userId, targetRoomId: target.roomId, startedAt: link.startedAt,
                        via: "link", sinkIds: sinks(targetRoomId: target.roomId, userId: source.userId), linkId: link.id))
            }
        }
        return watches
    }

    /// Records that a watch's first keyframe arrived at `time`; returns the event for the forwarding
    /// user, once: a watch already delivered (or whose forward or link ended) returns nothing.
    public mutating func firstKeyframeDelivered(_ watch: FirstKeyframeWatch, at time: EngineTime) -> [EngineAction] {
        if let linkId = watch.linkId {
            guard var link = links[linkId] else { return [] }
            if link.peer.roomId == watch.targetRoomId {
                guard !link.peer.firstKeyframeReported else { return [] }
                link.peer.firstKeyframeReported = true
            } else {
                guard !link.caller.firstKeyframeReported else { return [] }
                link.caller.firstKeyframeReported = true
            }
            links[linkId] = link
        } else {
            let key = ForwardKey(roomId: watch.sourceRoomId, userId: watch.userId)
            guard let target = forwards[key]?.targets[watch.targetRoomId], !target.firstKeyframeReported else { return [] }
            forwards[key]!.targets[watch.targetRoomId]!.firstKeyframeReported = true
        }
        let elapsed = max(0, time.milliseconds &- watch.startedAt.milliseconds)
        return [
            .event(
                watch.session,
                .forwardStreamFirstKeyframe(
                    ForwardFirstKeyframeEvent(
                        roomId: watch.sourceRoomId, userId: watch.userId, targetRoomId: watch.targetRoomId, elapsedMs: elapsed, via: watch.via))),
            .domain(.firstKeyframe(watch, elapsedMs: elapsed)),
        ]
    }

    /// Relay-wide counts of forwards (targets) and links.
    public var forwardingTotals: (forwardTargets: Int, links: Int) {
        (forwards.values.reduce(0) { $0 + $1.order.count }, links.count)
    }
}
