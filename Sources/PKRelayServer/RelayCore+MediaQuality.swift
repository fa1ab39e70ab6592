import MediaPlane
import Protocol
import RoomEngine
import StreamCore

/// Volume reports, active-speaker changes and network quality, run on the relay's tick.
extension RelayCore {
    /// `enableAudioPropertiesReport`: turns a session's volume reports for one room on (or off with interval 0).
    func enableAudioPropertiesReport(_ params: EnableAudioPropertiesReportParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        func fail(_ error: RelayError) -> EngineOutcome<EmptyResult> { EngineOutcome(result: .failure(error), actions: []) }
        guard engine.userId(of: session, roomId: params.roomId) != nil else {
            return fail(RelayError(.notInRoom, "not joined to room '\(params.roomId)'"))
        }
        let interval = params.intervalMs ?? 300
        let topN = params.topN ?? 3
        let key = AudioReportKey(session: session, roomId: params.roomId)
        if interval == 0 {
            mediaQuality.audioReports[key] = nil
            return EngineOutcome(result: .success(EmptyResult()), actions: [])
        }
        guard (100...60_000).contains(interval) else { return fail(RelayError(.invalidParams, "params.intervalMs must be 0 (off) or 100-60000")) }
        guard (1...16).contains(topN) else { return fail(RelayError(.invalidParams, "params.topN must be 1-16")) }
        mediaQuality.audioReports[key] = AudioReportSubscription(intervalMs: Int64(interval), topN: topN, dueMs: nowMs() + Int64(interval))
        if mediaQuality.speakers[params.roomId] == nil { mediaQuality.speakers[params.roomId] = ActiveSpeakerTracker() }
        return EngineOutcome(result: .success(EmptyResult()), actions: [])
    }

    /// Runs on every tick: volume reports when due, network quality every 2 s.
    func runMediaQuality(_ report: MediaPlaneReport) {
        let time = nowMs()
        reportAudioLevels(now: time)
        if time - mediaQuality.lastQualityMs >= MediaQualityState.qualityIntervalMs {
            mediaQuality.lastQualityMs = time
            reportNetworkQuality(report)
        }
    }

    /// The audio sources of a room's visible members, by source id.
    func audioSources(of members: [MemberSnapshot]) -> [UInt32: SpeakerKey] {
        var result: [UInt32: SpeakerKey] = [:]
        for member in members where member.visible {
            for (index, tracks) in member.publications {
                for track in tracks where track.kind == .audio && track.audioLevelExtensionId != nil {
                    result[track.id] = SpeakerKey(userId: member.userId, streamIndex: index)
                }
            }
        }
        return result
    }

    /// Volume reports that are due, and active-speaker changes. Each room with reports is
    /// looked at once per tick (its members read once), so the work grows with the rooms and
    /// their members, not with members times reports.
    func reportAudioLevels(now time: Int64) {
        let levels = media.takeAudioLevels()
        let byRoom = Dictionary(grouping: mediaQuality.audioReports.keys, by: \.roomId)
        for roomId in mediaQuality.speakers.keys where byRoom[roomId] == nil { mediaQuality.speakers[roomId] = nil }
        for (roomId, keys) in byRoom.sorted(by: { $0.key < $1.key }) {
            let members = engine.snapshot(roomId: roomId) ?? []
            // The sessions of the room's own users (mirrors shown here belong to other rooms).
            var users: [SessionID: String] = [:]
            for member in members where engine.forwardedFrom(roomId: roomId, userId: member.userId) == nil { users[member.session] = member.userId }
            // Subscriptions of sessions that left the room end here.
            let live = keys.filter { users[$0.session] != nil }.sorted { $0.session < $1.session }
            for key in keys where users[key.session] == nil { mediaQuality.audioReports[key] = nil }
            guard !live.isEmpty else {
                mediaQuality.speakers[roomId] = nil
                continue
            }
            let sources = audioSources(of: members)
            var roomLevels: [UInt32: AudioLevelSample] = [:]
            for (id, sample) in levels where sources[id] != nil { roomLevels[id] = sample }
            updateActiveSpeaker(roomId: roomId, levels: roomLevels, sources: sources, notify: live.map(\.session))
            for key in live {
                guard var subscription = mediaQuality.audioReports[key] else { continue }
                for (id, sample) in roomLevels { subscription.pending[id] = subscription.pending[id].map { $0.merged(with: sample) } ?? sample }
                if time >= subscription.dueMs - MediaQualityState.earlyToleranceMs {
                    subscription.dueMs = max(subscription.dueMs + subscription.intervalMs, time)
                    let speakers = rankSpeakers(subscription.pending, sources: sources, excluding: users[key.session], count: subscription.topN)
                    subscription.pending = [:]
                    if !speakers.isEmpty || subscription.lastHadSpeakers {
                        send(.remoteAudioPropertiesReport(AudioPropertiesReportEvent(roomId: roomId, speakers: speakers)), to: key.session)
                    }
                    subscription.lastHadSpeakers = !speakers.isEmpty
                }
                mediaQuality.audioReports[key] = subscription
            }
        }
    }

    /// The loudest `count` streams of the gathered levels, loudest first.
    func rankSpeakers(_ pending: [UInt32: AudioLevelSample], sources: [UInt32: SpeakerKey], excluding userId: String?, count: Int) -> [SpeakerVolume] {
        var byStream: [SpeakerKey: AudioLevelSample] = [:]
        for (id, sample) in pending {
            guard let key = sources[id], key.userId != userId else { continue }
            byStream[key] = byStream[key].map { $0.merged(with: sample) } ?? sample
        }
        return AudioLevelRanking.loudest(byStream.mapValues(\.level), count: count).map { entry in
            SpeakerVolume(
                userId: entry.key.userId, streamIndex: entry.key.streamIndex, level: Int(entry.level),
                linearVolume: AudioLevelRanking.linearVolume(level: entry.level), voiceActivity: byStream[entry.key]?.voiceActivity ?? false)
        }
    }

    func updateActiveSpeaker(roomId: String, levels: [UInt32: AudioLevelSample], sources: [UInt32: SpeakerKey], notify sessions: [SessionID]) {
        var byUser: [String: UInt8] = [:]
        for (id, sample) in levels {
            guard let key = sources[id] else { continue }
            byUser[key.userId] = min(byUser[key.userId] ?? 127, sample.level)
        }
        var tracker = mediaQuality.speakers[roomId] ?? ActiveSpeakerTracker()
        if let current = tracker.current, !sources.values.contains(where: { $0.userId == current }) { tracker.remove(current) }
        let loudest = AudioLevelRanking.loudest(byUser, count: 1).first
        if let speaker = tracker.update(loudest: loudest?.key, level: loudest?.level ?? 127),
           let text = text(of: .activeSpeaker(ActiveSpeakerEvent(roomId: roomId, userId: speaker))) {
            // The same event for every subscriber: encoded once.
            for session in sessions { send(text, to: session) }
        }
        mediaQuality.speakers[roomId] = tracker
    }

    /// Sends every member of every room its `onNetworkQuality`, from the figures since the last
    /// round; members with nothing known yet (no media either way) get none.
    func reportNetworkQuality(_ report: MediaPlaneReport) {
        defer {
            mediaQuality.previousSources = report.sources
            mediaQuality.previousSinks = report.sinks
        }
        for roomId in engine.roomIds {
            let members = engine.snapshot(roomId: roomId) ?? []
            var uplinks: [String: [StreamIndex: [NetworkQualitySample]]] = [:]
            for member in members {
                for (index, tracks) in member.publications {
                    uplinks[member.userId, default: [:]][index] = tracks.compactMap { uplinkSample(sourceId: $0.id, report: report) }
                }
            }
            for member in members where engine.forwardedFrom(roomId: roomId, userId: member.userId) == nil {
                let sinkSamples = member.subscriptions.map { subscription in
                    subscription.sinks.compactMap { downlinkSample(sink: $0, report: report) }
                }
                let ownRoundTrip = sinkSamples.joined().compactMap(\.roundTripTimeMs).min()
                var ownUplink = uplinks[member.userId]?.values.flatMap { $0 } ?? []
                for position in ownUplink.indices { ownUplink[position].roundTripTimeMs = ownRoundTrip }
                let local = Self.qualityInfo(userId: member.userId, ownUplink.isEmpty ? Array(sinkSamples.joined()) : ownUplink)
                var remotes: [NetworkQualityInfo] = []
                var byPublisher: [String: [NetworkQualitySample]] = [:]
                for (subscription, downlink) in zip(member.subscriptions, sinkSamples) {
                    byPublisher[subscription.publisherUserId, default: []] += downlink + (uplinks[subscription.publisherUserId]?[subscription.streamIndex] ?? [])
                }
                for (userId, samples) in byPublisher.sorted(by: { $0.key < $1.key }) {
                    remotes.append(Self.qualityInfo(userId: userId, samples))
                }
                // Nothing known yet (no media in either direction): no event, rather than a stream of Unknowns.
                guard local.quality != NetworkQualityScorer.unknown || remotes.contains(where: { $0.quality != NetworkQualityScorer.unknown }) else { continue }
                send(.networkQuality(NetworkQualityEvent(roomId: roomId, local: local, remotes: remotes)), to: member.session)
            }
        }
    }

    /// A publisher's track as received by the relay over the last window.
    func uplinkSample(sourceId: UInt32, report: MediaPlaneReport) -> NetworkQualitySample? {
        guard let current = report.sources[sourceId] else { return nil }
        let previous = mediaQuality.previousSources[sourceId] ?? SourceReport()
        let packets = current.packets &- min(previous.packets, current.packets)
        let lost = max(0, current.packetsLost - previous.packetsLost)
        let fraction = lost > 0 ? Double(lost) / Double(Int64(packets) + lost) : 0
        return NetworkQualitySample(
            packets: packets, fractionLost: fraction, jitterMs: current.jitterMs, idleMs: current.idleMs, everReceived: current.packets > 0)
    }

    /// A subscriber's track as the relay sent it and the subscriber reported it over the last window.
    func downlinkSample(sink: SinkTrack, report: MediaPlaneReport) -> NetworkQualitySample? {
        guard let current = report.sinks[sink.id], current.bound else { return nil }
        let previous = mediaQuality.previousSinks[sink.id] ?? SinkReport()
        let packets = current.packets &- min(previous.packets, current.packets)
        let nacks = current.nacksReceived &- min(previous.nacksReceived, current.nacksReceived)
        let drops = current.drops &- min(previous.drops, current.drops)
        let jitterMs = sink.clockRate > 0 ? Double(current.jitter) * 1000 / Double(sink.clockRate) : 0
        return NetworkQualitySample(
            packets: packets, fractionLost: current.fractionLost,
            relayDropRate: drops > 0 ? Double(drops) / Double(packets + drops) : 0,
            nackRate: nacks > 0 ? Double(nacks) / Double(max(packets, 1)) : 0,
            jitterMs: jitterMs, roundTripTimeMs: current.roundTripTimeMs, idleMs: 0, everReceived: current.packets > 0)
    }

    /// The worst of several samples as one entry, with the figures of the worst one.
    static func qualityInfo(userId: String, _ samples: [NetworkQualitySample]) -> NetworkQualityInfo {
        let scored = samples.map { (sample: $0, quality: NetworkQualityScorer.score($0)) }
        let quality = NetworkQualityScorer.worst(scored.map(\.quality))
        guard quality != NetworkQualityScorer.unknown, let worst = scored.first(where: { $0.quality == quality })?.sample else {
            return NetworkQualityInfo(userId: userId, quality: quality)
        }
        return NetworkQualityInfo(
            userId: userId, quality: quality, lossRate: worst.effectiveLoss, jitterMs: worst.jitterMs,
            roundTripTimeMs: worst.roundTripTimeMs ?? samples.compactMap(\.roundTripTimeMs).min())
    }
}
