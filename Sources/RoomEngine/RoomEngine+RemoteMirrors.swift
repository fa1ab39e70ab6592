public import Protocol

/// Forwards across cluster nodes. The node that serves the source room decides, as on one node,
/// whether and how a user should appear in a target room; when that room lives on another node
/// it sends the wanted state there (``RemoteMirrorUpdate``) and feeds the user's tracks into the
/// media pipe to that node, once per node. The target node shows the user as a mirror whose
/// tracks arrive over the pipe, and tells the source node when the mirror ends on its side.
extension RoomEngine {
    // MARK: The source node

    /// The node a user's mirror in `targetRoomId` lives on, if that room is remote: from a
    /// forward target, or from the mirror still standing there.
    func remoteTarget(targetRoomId: String, userId: String) -> RemoteTarget? {
        for (key, forward) in forwards where key.userId == userId {
            if let remote = forward.targets[targetRoomId]?.remote { return remote }
        }
        for link in links.values {
            for (source, target) in [(link.caller, link.peer), (link.peer, link.caller)]
            where source.userId == userId && source.remote == nil && target.roomId == targetRoomId {
                if let remote = target.remote { return remote }
            }
        }
        return remoteMirrors[ForwardKey(roomId: targetRoomId, userId: userId)]?.target
    }

    /// Sends the target node what the user's mirror there should be now, and keeps the pipe's
    /// sinks to that node matching the tracks it shows.
    mutating func reconcileRemoteMirror(
        targetRoomId: String, userId: String, remote: RemoteTarget, reason: UnpublishReason, leaveReason: LeaveReason, into actions: inout [EngineAction]
    ) {
        let key = ForwardKey(roomId: targetRoomId, userId: userId)
        let previous = remoteMirrors[key]
        guard let desired = desiredMirror(targetRoomId: targetRoomId, userId: userId), let source = rooms[desired.sourceRoomId]?.members[userId] else {
            guard let previous else { return }
            remoteMirrors[key] = nil
            actions.append(
                .notify(
                    .mirror(
                        RemoteMirrorUpdate(
                            node: previous.target.node, epoch: previous.target.epoch, sourceRoomId: "", targetRoomId: targetRoomId, userId: userId,
                            role: .anchor,
                            expiresAt: EngineTime(milliseconds: 0), publications: nil, leaveReason: leaveReason, unpublishReason: reason))))
            for trackId in previous.trackIds.sorted() { releasePipeSink(PipeSinkKey(node: previous.target.node, trackId: trackId), into: &actions) }
            return
        }
        var publications: [RemotePublication] = []
        var trackIds = Set<UInt32>()
        for index in StreamIndex.allCases {
            guard let publication = source.publications[index].flatMap({ Self.filtered($0, muteMask: desired.muteMask) }) else { continue }
            publications.append(export(publication, to: remote, exported: previous?.trackIds, trackIds: &trackIds, into: &actions))
        }
        remoteMirrors[key] = RemoteMirrorRecord(target: remote, trackIds: trackIds)
        actions.append(
            .notify(
                .mirror(
                    RemoteMirrorUpdate(
                        node: remote.node, epoch: remote.epoch, sourceRoomId: desired.sourceRoomId, targetRoomId: targetRoomId, userId: userId,
                        role: source.role,
                        expiresAt: desired.grants.expiresAt, publications: publications, leaveReason: leaveReason, unpublishReason: reason))))
        for trackId in (previous?.trackIds ?? []).subtracting(trackIds).sorted() {
            releasePipeSink(PipeSinkKey(node: remote.node, trackId: trackId), into: &actions)
        }
    }

    /// `publication` as the remote node shows it: each track through its pipe sink to that node
    /// (counted once more where `exported`, what the same mirror or replica exported before, lacks
    /// it), its id added to `trackIds`.
    mutating func export(
        _ publication: Publication, to remote: RemoteTarget, exported: Set<UInt32>?, trackIds: inout Set<UInt32>, into actions: inout [EngineAction]
    ) -> RemotePublication {
        let tracks = publication.tracks.map { track in
            let sink = pipeSink(for: track, to: remote, counting: exported?.contains(track.id) != true, into: &actions)
            trackIds.insert(track.id)
            return RemoteTrack(
                ssrc: sink.outputSSRC, kind: track.kind, codec: track.codec, clockRate: track.clockRate, payloadType: track.payloadType,
                audioLevelExtensionId: track.audioLevelExtensionId, videoStreamType: track.videoStreamType)
        }
        return RemotePublication(streamIndex: publication.streamIndex, tracks: tracks, descriptions: publication.descriptions)
    }

    /// The pipe sink feeding `track` to the remote node, made when it is the first mirror there
    /// to show it. It is bound to the track (which asks for a keyframe) only once that node wants
    /// the packets: nothing crosses for a mirror nobody there watches.
    mutating func pipeSink(for track: SourceTrack, to remote: RemoteTarget, counting: Bool, into actions: inout [EngineAction]) -> SinkTrack {
        let key = PipeSinkKey(node: remote.node, trackId: track.id)
        if var existing = pipeSinks[key] {
            if counting {
                existing.users += 1
                pipeSinks[key] = existing
            }
            return existing.sink
        }
        let sink = SinkTrack(id: allocateTrackId(), transportId: remote.pipeTransportId, outputSSRC: ssrcs.next(), kind: track.kind, clockRate: track.clockRate)
        pipeSinks[key] = PipeSink(sink: sink, users: 1)
        actions.append(.media(.addSink(sink)))
        return sink
    }

    mutating func releasePipeSink(_ key: PipeSinkKey, into actions: inout [EngineAction]) {
        guard var pipe = pipeSinks[key] else { return }
        pipe.users -= 1
        guard pipe.users <= 0 else {
            pipeSinks[key] = pipe
            return
        }
        pipeSinks[key] = nil
        if pipe.bound { unbind(sink: pipe.sink.id, into: &actions) }
        removeSink(pipe.sink, into: &actions)
    }

    /// `node` wants (or no longer wants) the track it receives on pipe SSRC `ssrc`: a subscriber
    /// there was bound to it (or the last one left).
    public mutating func remotePipeDemand(node: String, ssrc: UInt32, wanted: Bool) -> [EngineAction] {
        guard let key = pipeSinks.first(where: { $0.key.node == node && $0.value.sink.outputSSRC == ssrc })?.key, pipeSinks[key]!.bound != wanted else {
            return []
        }
        pipeSinks[key]!.bound = wanted
        let sink = pipeSinks[key]!.sink
        var actions: [EngineAction] = []
        if wanted { bind(sink: sink.id, to: key.trackId, switching: false, into: &actions) } else { unbind(sink: sink.id, into: &actions) }
        return actions
    }

    /// The target node ended a mirror on its side: the forward target fails as it would on one node.
    public mutating func remoteMirrorEnded(_ end: RemoteMirrorEnd, now: EngineTime) -> [EngineAction] {
        guard forwards[ForwardKey(roomId: end.sourceRoomId, userId: end.userId)]?.targets[end.targetRoomId]?.remote?.node == end.node else { return [] }
        var actions: [EngineAction] = []
        endForwardTarget(
            sourceRoomId: end.sourceRoomId, targetRoomId: end.targetRoomId, userId: end.userId, forwardError: end.forwardError,
            leaveReason: end.leaveReason, into: &actions)
        return actions
    }

    /// The control connection to `node` was lost, and with it the media pipe `pipeTransportId`:
    /// each forwarding user hears Disconnected for each of its target rooms there, the tracks
    /// stop crossing (the target node drops the mirrors itself), links and pending invitations
    /// with anchors there end, the mirrors of that node's users leave their rooms here (as a
    /// user whose connection dropped), and the pipe closes after everything on it is gone.
    public mutating func remoteNodeLost(_ node: String, pipeTransportId: Int) -> [EngineAction] {
        var actions: [EngineAction] = []
        // Nothing more is said to that node: what its tracks' subscribers let go of here below
        // goes unsaid, as the pipe carrying them closes.
        if pipeTransports[node] == pipeTransportId { pipeTransports[node] = nil }
        stopReplicating(to: node, into: &actions)
        forwardEvents(.disconnected, node: node, into: &actions)
        for key in remoteMirrors.keys where remoteMirrors[key]?.target.node == node { remoteMirrors[key] = nil }
        endRemoteLinks(on: node, into: &actions)
        failRemoteInvitations(on: node, into: &actions)
        for key in pipeSinks.keys.sorted(by: { $0.trackId < $1.trackId }) where key.node == node {
            let pipe = pipeSinks.removeValue(forKey: key)!
            if pipe.bound { unbind(sink: pipe.sink.id, into: &actions) }
            removeSink(pipe.sink, into: &actions)
        }
        dropRemoteMirrors(from: node, into: &actions)
        actions.append(.media(.closeTransport(pipeTransportId)))
        return actions
    }

    /// The control connection to `node` is up, with a new media pipe: every forward target there
    /// takes the new pipe and its mirror is sent again; a target that was cut off hears Connected.
    public mutating func remoteNodeReady(_ node: String, pipeTransportId: Int) -> [EngineAction] {
        pipeTransports[node] = pipeTransportId
        var actions: [EngineAction] = []
        var touched: [ForwardKey] = []
        for (key, forward) in forwards.sorted(by: { ($0.key.roomId, $0.key.userId) < ($1.key.roomId, $1.key.userId) }) {
            for roomId in forward.order where forward.targets[roomId]?.remote?.node == node {
                forwards[key]!.targets[roomId]!.remote!.pipeTransportId = pipeTransportId
                touched.append(ForwardKey(roomId: roomId, userId: key.userId))
            }
        }
        forwardEvents(.connected, node: node, into: &actions)
        for target in touched {
            reconcileMirror(targetRoomId: target.roomId, userId: target.userId, reason: .other, leaveReason: .dropped, into: &actions)
        }
        followAgain(origin: node, pipeTransportId: pipeTransportId, into: &actions)
        return actions
    }

    /// onForwardStreamEvent with `event` for every target room on `node`, per forwarding user.
    func forwardEvents(_ event: ForwardEvent, node: String, into actions: inout [EngineAction]) {
        for (key, forward) in forwards.sorted(by: { ($0.key.roomId, $0.key.userId) < ($1.key.roomId, $1.key.userId) }) {
            let rooms = forward.order.filter { forward.targets[$0]?.remote?.node == node }
            guard !rooms.isEmpty else { continue }
            actions.append(
                .event(
                    forward.session,
                    .forwardStreamEvent(
                        ForwardStreamEventEvent(
                            roomId: key.roomId, userId: key.userId, infos: rooms.map { ForwardStreamEventInfo(roomId: $0, event: event.rawValue) }))))
        }
    }

    /// `node` is gone (its control connection stayed down past the cluster's lease, or it came
    /// back as a new process): every forward target there fails with 1203, as for a dismissed
    /// room, and the rooms served here as its edges end (-1011).
    public mutating func remoteNodeGone(_ node: String) -> [EngineAction] {
        var actions: [EngineAction] = []
        endEdgeRooms(of: node, into: &actions)
        for (key, forward) in forwards.sorted(by: { ($0.key.roomId, $0.key.userId) < ($1.key.roomId, $1.key.userId) }) {
            for roomId in forward.order where forward.targets[roomId]?.remote?.node == node {
                endForwardTarget(
                    sourceRoomId: key.roomId, targetRoomId: roomId, userId: key.userId, forwardError: .forwardResponse, leaveReason: .dropped, into: &actions)
            }
        }
        return actions
    }

    /// The node and placement epoch of a forward's target room, when another node serves it.
    public func remoteForwardTarget(sourceRoomId: String, userId: String, targetRoomId: String) -> RemoteTarget? {
        forwards[ForwardKey(roomId: sourceRoomId, userId: userId)]?.targets[targetRoomId]?.remote
    }

    /// Whether any forward target lives on `node` (the control plane keeps its connection up).
    public func hasRemoteTargets(on node: String) -> Bool {
        forwards.values.contains { forward in forward.targets.values.contains { $0.remote?.node == node } }
    }

    // MARK: The target node

    /// Shows (or updates) a mirror of a user whose source room lives on `node`, its tracks
    /// arriving on the pipe transport from that node. Refused when a real user with that userId
    /// is in the room (1204), the user is shown there from elsewhere (1201), or the room is at a
    /// limit (1203): the source node then ends that forward target.
    public mutating func applyRemoteMirror(
        node: String, pipeTransportId: Int, sourceRoomId: String, targetRoomId: String, userId: String, role: UserRole,
        expiresAt: EngineTime, publications: [RemotePublication], now: EngineTime
    ) -> EngineOutcome<EmptyResult> {
        if let refusal = remoteMirrorRefusal(node: node, sourceRoomId: sourceRoomId, targetRoomId: targetRoomId, userId: userId) {
            return EngineOutcome(result: .failure(refusal), actions: [])
        }
        var actions: [EngineAction] = []
        if rooms[targetRoomId]?.members[userId] == nil {
            var mirror = Member(
                session: Self.remoteSession, userId: userId, role: .anchor, visible: true,
                config: RoomConfig(autoPublish: false, autoSubscribeAudio: false, autoSubscribeVideo: false),
                grants: TokenGrants(publish: true, subscribe: false, forward: false, hidden: false, expiresAt: expiresAt))
            mirror.forwardedFrom = sourceRoomId
            mirror.remoteNode = node
            if rooms[targetRoomId] == nil { actions.append(.domain(.roomCreated(roomId: targetRoomId))) }
            var room = rooms[targetRoomId] ?? Room(id: targetRoomId)
            room.insert(mirror)
            rooms[targetRoomId] = room
            broadcast(
                .userJoined(UserJoinedEvent(roomId: targetRoomId, userId: userId, role: role, forwardedFrom: sourceRoomId)), in: targetRoomId, except: userId,
                into: &actions)
        }
        rooms[targetRoomId]!.members[userId]!.grants.expiresAt = expiresAt
        remoteMirrorStreams[ForwardKey(roomId: targetRoomId, userId: userId)] = RemoteMirrorStreams(
            pipeTransportId: pipeTransportId, publications: publications)
        showRemoteStreams(targetRoomId: targetRoomId, userId: userId, now: now, into: &actions)
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Makes a mirror from another node show the streams last sent for it, less what this
    /// room's link hides.
    /// `unpublishReason` is what a stream that ends hears (by default Unpublish, or Republish when
    /// another takes its place).
    mutating func showRemoteStreams(
        targetRoomId: String, userId: String, now: EngineTime, unpublishReason: UnpublishReason? = nil, into actions: inout [EngineAction]
    ) {
        guard let streams = remoteMirrorStreams[ForwardKey(roomId: targetRoomId, userId: userId)], rooms[targetRoomId]?.members[userId] != nil else { return }
        let muteMask = localMuteMask(roomId: targetRoomId, peerUserId: userId)
        for index in StreamIndex.allCases {
            let wanted = streams.publications.first { $0.streamIndex == index }.flatMap { Self.filtered($0, muteMask: muteMask) }
            let present = rooms[targetRoomId]!.members[userId]!.publications[index]
            let wantedTracks = wanted.map { publication in publication.tracks.map { track(for: $0, pipeTransportId: streams.pipeTransportId) } }
            if wantedTracks == present?.tracks { continue }
            if present != nil {
                let reason = unpublishReason ?? (wanted == nil ? .unpublish : .republish)
                unpublish(roomId: targetRoomId, userId: userId, streamIndex: index, reason: reason, into: &actions)
            }
            if let wanted, let wantedTracks {
                for track in wantedTracks { retainRemoteSource(track, into: &actions) }
                installPublication(
                    Publication(streamIndex: index, tracks: wantedTracks, descriptions: wanted.descriptions, lastMediaAt: now),
                    roomId: targetRoomId, userId: userId, into: &actions)
            }
        }
    }

    /// The link mute mask an anchor of `roomId` set for its linked peer `peerUserId` (0 when
    /// none: forwards hide nothing).
    func localMuteMask(roomId: String, peerUserId: String) -> Int {
        for link in links.values {
            if link.caller.roomId == roomId, link.caller.remote == nil, link.peer.userId == peerUserId { return link.caller.muteMask }
            if link.peer.roomId == roomId, link.peer.remote == nil, link.caller.userId == peerUserId { return link.peer.muteMask }
        }
        return 0
    }

    /// A remote publication without the kinds the mute mask hides; nil when nothing is left.
    static func filtered(_ publication: RemotePublication, muteMask: Int) -> RemotePublication? {
        if publication.streamIndex == .screen { return muteMask & 4 != 0 ? nil : publication }
        var copy = publication
        copy.tracks = publication.tracks.filter { muteMask & $0.kind.mediaTypeBit == 0 }
        copy.descriptions = publication.descriptions.filter { muteMask & $0.kind.mediaTypeBit == 0 }
        return copy.tracks.isEmpty ? nil : copy
    }

    /// The link mute mask here changed: the mirror from another node shows what it now allows.
    mutating func refilterRemoteMirror(node: String, targetRoomId: String, userId: String, into actions: inout [EngineAction]) {
        let lastMedia = rooms[targetRoomId]?.members[userId]?.publications.values.map(\.lastMediaAt).max() ?? EngineTime(milliseconds: 0)
        showRemoteStreams(targetRoomId: targetRoomId, userId: userId, now: lastMedia, into: &actions)
    }

    /// Why a mirror of `userId` from `node` cannot be shown in `targetRoomId` now, if it cannot:
    /// a real user with that userId is there (1204), the user is shown there from elsewhere
    /// (1201), or the room is at a limit (1203). A mirror already shown is only updated.
    public func remoteMirrorRefusal(node: String, sourceRoomId: String, targetRoomId: String, userId: String) -> RelayError? {
        if let problem = RelayIdentifier.problem(with: targetRoomId) { return RelayError(.forwardInvalidArgument, "target roomId \(problem)") }
        if let problem = RelayIdentifier.problem(with: userId) { return RelayError(.forwardInvalidArgument, "userId \(problem)") }
        if let current = rooms[targetRoomId]?.members[userId] {
            if !current.isMirror { return RelayError(.forwardRemoteKicked, "a user with the same userId is in the target room") }
            if current.remoteNode != node || current.forwardedFrom != sourceRoomId {
                return RelayError(.forwardInvalidArgument, "the user is already forwarded or linked into that room from another room")
            }
            return nil
        }
        if let room = rooms[targetRoomId] {
            if room.visibleCount >= limits.maximumVisibleUsersPerRoom { return RelayError(.forwardResponse, "the target room is at its visible-user limit") }
            if room.publisherCount >= limits.maximumPublishersPerRoom { return RelayError(.forwardResponse, "the target room is at its publisher limit") }
        }
        return nil
    }

    /// Removes the mirror of a user from `node` (its forward stopped, paused or failed there).
    public mutating func removeRemoteMirror(
        node: String, targetRoomId: String, userId: String, leaveReason: LeaveReason, unpublishReason: UnpublishReason
    ) -> [EngineAction] {
        guard rooms[targetRoomId]?.members[userId]?.remoteNode == node else { return [] }
        var actions: [EngineAction] = []
        removeMember(roomId: targetRoomId, userId: userId, leaveReason: leaveReason, unpublishReason: unpublishReason, exit: nil, into: &actions)
        return actions
    }

    /// The control connection to `node` is gone: its mirrors leave their rooms, as a user whose
    /// connection dropped.
    mutating func dropRemoteMirrors(from node: String, into actions: inout [EngineAction]) {
        for roomId in rooms.keys.sorted() {
            for member in rooms[roomId]?.orderedMembers ?? [] where member.remoteNode == node {
                removeMember(roomId: roomId, userId: member.userId, leaveReason: .dropped, unpublishReason: .other, exit: nil, into: &actions)
            }
        }
    }

    /// This node shuts down: every mirror of a user from another node ends as its room would
    /// (the source node's forward target fails with 1203).
    public mutating func endRemoteMirrors() -> [EngineAction] {
        var actions: [EngineAction] = []
        for roomId in rooms.keys.sorted() {
            for member in rooms[roomId]?.orderedMembers ?? [] where member.remoteNode != nil {
                endMirror(
                    roomId: roomId, userId: member.userId, forwardError: .forwardResponse, linkReason: "serverShutdown", leaveReason: .dropped, into: &actions)
            }
        }
        return actions
    }

    /// The local source standing for a pipe track: one per pipe SSRC, shared by every room here
    /// that shows it.
    mutating func track(for remote: RemoteTrack, pipeTransportId: Int) -> SourceTrack {
        let key = RemoteSourceKey(transportId: pipeTransportId, ssrc: remote.ssrc)
        let id: UInt32
        if let known = remoteSources[key] {
            id = known
        } else {
            id = allocateTrackId()
            remoteSources[key] = id
        }
        return SourceTrack(
            id: id, transportId: pipeTransportId, ssrc: remote.ssrc, kind: remote.kind, codec: remote.codec, clockRate: remote.clockRate,
            payloadType: remote.payloadType, audioLevelExtensionId: remote.audioLevelExtensionId, videoStreamType: remote.videoStreamType)
    }

    mutating func retainRemoteSource(_ track: SourceTrack, into actions: inout [EngineAction]) {
        let users = remoteSourceUsers[track.id, default: 0]
        if users == 0 {
            remoteSources[RemoteSourceKey(transportId: track.transportId, ssrc: track.ssrc)] = track.id
            actions.append(.media(.addSource(track)))
        }
        remoteSourceUsers[track.id] = users + 1
    }

    mutating func releaseRemoteSource(_ id: UInt32, into actions: inout [EngineAction]) {
        guard let users = remoteSourceUsers[id] else { return }
        guard users <= 1 else {
            remoteSourceUsers[id] = users - 1
            return
        }
        remoteSourceUsers[id] = nil
        forgetPipeDemand(source: id)
        remoteSources = remoteSources.filter { $0.value != id }
        actions.append(.media(.removeSource(id)))
    }

    /// The session remote mirrors stand under: no connection has it, so none hears their events.
    static let remoteSession: SessionID = 0
}
