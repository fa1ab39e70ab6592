import Protocol

/// Mirrors: how a forwarded or linked user appears in a target room. Forwards and links only
/// decide *whether* a user should appear in a room and which of its streams are hidden; one
/// reconciler makes the target room match, so every path (start, pause, visibility, publish,
/// leave) produces the same join/publish/unpublish/leave events a local user would.
extension RoomEngine {
    /// The mirror a user should have in a target room now, if any.
    func desiredMirror(targetRoomId: String, userId: String) -> MirrorSpec? {
        var spec: MirrorSpec?
        for (key, forward) in forwards where key.userId == userId && !forward.paused {
            if let target = forward.targets[targetRoomId] {
                spec = MirrorSpec(sourceRoomId: key.roomId, session: forward.session, grants: target.grants, muteMask: 0)
            }
        }
        if spec == nil {
            for link in links.values.sorted(by: { $0.id < $1.id }) {
                if link.caller.userId == userId, link.peer.roomId == targetRoomId {
                    spec = MirrorSpec(sourceRoomId: link.caller.roomId, session: link.caller.session, grants: Self.linkGrants, muteMask: link.peer.muteMask)
                    break
                }
                if link.peer.userId == userId, link.caller.roomId == targetRoomId {
                    spec = MirrorSpec(sourceRoomId: link.peer.roomId, session: link.peer.session, grants: Self.linkGrants, muteMask: link.caller.muteMask)
                    break
                }
            }
        }
        guard let spec, let source = rooms[spec.sourceRoomId]?.members[userId], !source.isMirror, source.visible else { return nil }
        return spec
    }

    /// Links have no token of their own in the target room: they last as long as both anchors do.
    static let linkGrants = TokenGrants(publish: true, subscribe: false, forward: false, hidden: false, expiresAt: EngineTime(milliseconds: .max))

    /// Makes a user's mirror in a target room match what its forwards and links want.
    mutating func reconcileMirror(targetRoomId: String, userId: String, reason: UnpublishReason, leaveReason: LeaveReason, into actions: inout [EngineAction]) {
        if let remote = remoteTarget(targetRoomId: targetRoomId, userId: userId) {
            reconcileRemoteMirror(targetRoomId: targetRoomId, userId: userId, remote: remote, reason: reason, leaveReason: leaveReason, into: &actions)
            return
        }
        let desired = desiredMirror(targetRoomId: targetRoomId, userId: userId)
        let current = rooms[targetRoomId]?.members[userId]
        if let current, let node = current.remoteNode {
            // A mirror from another node: only the link's mute mask here may have changed.
            refilterRemoteMirror(node: node, targetRoomId: targetRoomId, userId: userId, into: &actions)
            return
        }
        if let current, !current.isMirror { return }
        guard let desired else {
            if current != nil {
                removeMember(roomId: targetRoomId, userId: userId, leaveReason: leaveReason, unpublishReason: reason, exit: nil, into: &actions)
            }
            return
        }
        if current == nil || current?.forwardedFrom != desired.sourceRoomId {
            if current != nil {
                removeMember(roomId: targetRoomId, userId: userId, leaveReason: leaveReason, unpublishReason: reason, exit: nil, into: &actions)
            }
            let source = rooms[desired.sourceRoomId]!.members[userId]!
            var mirror = Member(
                session: desired.session, userId: userId, role: .anchor, visible: true,
                config: RoomConfig(autoPublish: false, autoSubscribeAudio: false, autoSubscribeVideo: false), grants: desired.grants)
            mirror.forwardedFrom = desired.sourceRoomId
            if rooms[targetRoomId] == nil { actions.append(.domain(.roomCreated(roomId: targetRoomId))) }
            var room = rooms[targetRoomId] ?? Room(id: targetRoomId)
            room.insert(mirror)
            rooms[targetRoomId] = room
            broadcast(
                .userJoined(UserJoinedEvent(roomId: targetRoomId, userId: userId, role: source.role, forwardedFrom: desired.sourceRoomId)), in: targetRoomId,
                except: userId, into: &actions)
        }
        rooms[targetRoomId]!.members[userId]!.grants = desired.grants
        let source = rooms[desired.sourceRoomId]!.members[userId]!
        for index in StreamIndex.allCases {
            let wanted = source.publications[index].flatMap { Self.filtered($0, muteMask: desired.muteMask) }
            let present = rooms[targetRoomId]!.members[userId]!.publications[index]
            if wanted?.tracks == present?.tracks { continue }
            if present != nil {
                unpublish(roomId: targetRoomId, userId: userId, streamIndex: index, reason: wanted == nil ? reason : .republish, into: &actions)
            }
            if let wanted {
                installPublication(wanted, roomId: targetRoomId, userId: userId, into: &actions)
            }
        }
    }

    /// A publication without the kinds the mute mask hides; nil when nothing is left.
    static func filtered(_ publication: Publication, muteMask: Int) -> Publication? {
        if publication.streamIndex == .screen { return muteMask & 4 != 0 ? nil : publication }
        var copy = publication
        copy.tracks = publication.tracks.filter { muteMask & $0.kind.mediaTypeBit == 0 }
        copy.descriptions = publication.descriptions.filter { muteMask & $0.kind.mediaTypeBit == 0 }
        return copy.tracks.isEmpty ? nil : copy
    }

    /// Every room a user of `roomId` is, or should be, mirrored into.
    func mirrorRooms(of roomId: String, userId: String) -> [String] {
        var targets = Set<String>()
        if let forward = forwards[ForwardKey(roomId: roomId, userId: userId)] { targets.formUnion(forward.order) }
        for link in links.values {
            if link.caller.roomId == roomId, link.caller.userId == userId { targets.insert(link.peer.roomId) }
            if link.peer.roomId == roomId, link.peer.userId == userId { targets.insert(link.caller.roomId) }
        }
        for (id, room) in rooms where room.members[userId]?.forwardedFrom == roomId && room.members[userId]?.isReplica == false { targets.insert(id) }
        return targets.sorted()
    }

    /// Brings every mirror of a user up to date after a change in its source room.
    mutating func syncMirrors(of roomId: String, userId: String, reason: UnpublishReason, leaveReason: LeaveReason = .quit, into actions: inout [EngineAction])
    {
        guard rooms[roomId]?.members[userId]?.isMirror != true else { return }
        for target in mirrorRooms(of: roomId, userId: userId) {
            reconcileMirror(targetRoomId: target, userId: userId, reason: reason, leaveReason: leaveReason, into: &actions)
        }
    }
}
