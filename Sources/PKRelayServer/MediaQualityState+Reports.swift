import MediaPlane
import Protocol
import RoomEngine
import StreamCore

/// Volume reports, active-speaker changes and network quality, decided from the rooms (a
/// read-only engine) and the media plane's figures; the relay core delivers what comes out.
extension MediaQualityState {
    /// `enableAudioPropertiesReport` for a session already known to be in the room: turns its
    /// volume reports for the room on, or off with interval 0.
    mutating func enableAudioReports(session: SessionID, params: EnableAudioPropertiesReportParams, nowMs: Int64) -> Result<EmptyResult, RelayError> {
        let interval = params.intervalMs ?? 300
        let topN = params.topN ?? 3
        let key = AudioReportKey(session: session, roomId: params.roomId)
        if interval == 0 {
            audioReports[key] = nil
            return .success(EmptyResult())
        }
        guard (100...60_000).contains(interval) else { return .failure(RelayError(.invalidParams, "params.intervalMs must be 0 (off) or 100-60000")) }
        guard (1...16).contains(topN) else { return .failure(RelayError(.invalidParams, "params.topN must be 1-16")) }
        audioReports[key] = AudioReportSubscription(intervalMs: Int64(interval), topN: topN, dueMs: nowMs + Int64(interval))
        if speakers[params.roomId] == nil { speakers[params.roomId] = ActiveSpeakerTracker() }
        return .success(EmptyResult())
    }

    /// One tick: volume reports when due, network quality every 2 s.
    mutating func tick(report: MediaPlaneReport, levels: [UInt32: AudioLevelSample], engine: RoomEngine, nowMs: Int64) -> [MediaQualityNotice] {
        var notices: [MediaQualityNotice] = []
        reportAudioLevels(levels, now: nowMs, engine: engine, into: &notices)
        if nowMs - lastQualityMs >= Self.qualityIntervalMs {
            lastQualityMs = nowMs
            reportNetworkQuality(report, engine: engine, into: &notices)
        }
        return notices
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
    mutating func reportAudioLevels(_ levels: [UInt32: AudioLevelSample], now time: Int64, engine: RoomEngine, into notices: inout [MediaQualityNotice]) {
        let byRoom = Dictionary(grouping: audioReports.keys, by: \.roomId)
        for roomId in speakers.keys where byRoom[roomId] == nil { speakers[roomId] = nil }
        for (roomId, keys) in byRoom.sorted(by: { $0.key < $1.key }) {
            let members = engine.snapshot(roomId: roomId) ?? []
            // The sessions of the room's own users (mirrors shown here belong to other rooms).
            var users: [SessionID: String] = [:]
            for member in members where engine.forwardedFrom(roomId: roomId, userId: member.userId) == nil { users[member.session] = member.userId }
            // Subscriptions of sessions that left the room end here.
            let live = keys.filter { users[$0.session] != nil }.sorted { $0.session < $1.session }
            for key in keys where users[key.session] == nil { audioReports[key] = nil }
            guard !live.isEmpty else {
                speakers[roomId] = nil
                continue
            }
            let sources = audioSources(of: members)
            var roomLevels: [UInt32: AudioLevelSample] = [:]
            for (id, sample) in levels where sources[id] != nil { roomLevels[id] = sample }
            updateActiveSpeaker(roomId: roomId, levels: roomLevels, sources: sources, notify: live.map(\.session), into: &notices)
            for key in live {
                guard var subscription = audioReports[key] else { continue }
                for (id, sample) in roomLevels { subscription.pending[id] = subscription.pending[id].map { $0.merged(with: sample) } ?? sample }
                if time >= subscription.dueMs - MediaQualityState.earlyToleranceMs {
                    subscription.dueMs = max(subscription.dueMs + subscription.intervalMs, time)
                    let speakers = rankSpeakers(subscription.pending, sources: sources, excluding: users[key.session], count: subscription.topN)
                    subscription.pending = [:]
                    if !speakers.isEmpty || subscription.lastHadSpeakers {
                        notices.append(
                            MediaQualityNotice(
                                sessions: [key.session], event: .remoteAudioPropertiesReport(AudioPropertiesReportEvent(roomId: roomId, speakers: speakers))))
                    }
                    subscription.lastHadSpeakers = !speakers.isEmpty
                }
                audioReports[key] = subscription
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

    mutating func updateActiveSpeaker(
        roomId: String, levels: [UInt32: AudioLevelSample], sources: [UInt32: SpeakerKey], notify sessions: [SessionID],
        into notices: inout [MediaQualityNotice]
    ) {
        var byUser: [String: UInt8] = [:]
        for (id, sample) in levels {
            guard let key = sources[id] else { continue }
            byUser[key.userId] = min(byUser[key.userId] ?? 127, sample.level)
        }
        var tracker = speakers[roomId] ?? ActiveSpeakerTracker()
        if let current = tracker.current, !sources.values.contains(where: { $0.userId == current }) { tracker.remove(current) }
        let loudest = AudioLevelRanking.loudest(byUser, count: 1).first
        if let speaker = tracker.update(loudest: loudest?.key, level: loudest?.level ?? 127) {
            notices.append(MediaQualityNotice(sessions: sessions, event: .activeSpeaker(ActiveSpeakerEvent(roomId: roomId, userId: speaker))))
        }
        speakers[roomId] = tracker
    }

    /// Sends every member of every room its `onNetworkQuality`, from the figures since the last
    /// round; members with nothing known yet (no media either way) get none.
    mutating func reportNetworkQuality(_ report: MediaPlaneReport, engine: RoomEngine, into notices: inout [MediaQualityNotice]) {
        defer {
            previousSources = report.sources
            previousSinks = report.sinks
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
                    byPublisher[subscription.publisherUserId, default: []] +=
                        downlink + (uplinks[subscription.publisherUserId]?[subscription.streamIndex] ?? [])
                }
                for (userId, samples) in byPublisher.sorted(by: { $0.key < $1.key }) {
                    remotes.append(Self.qualityInfo(userId: userId, samples))
                }
                // Nothing known yet (no media in either direction): no event, rather than a stream of Unknowns.
                guard local.quality != NetworkQualityScorer.unknown || remotes.contains(where: { $0.quality != NetworkQualityScorer.unknown }) else { continue }
                notices.append(
                    MediaQualityNotice(sessions: [member.session], event: .networkQuality(NetworkQualityEvent(roomId: roomId, local: local, remotes: remotes))))
            }
        }
    }

    /// A publisher's track as received by the relay over the last window.
    func uplinkSample(sourceId: UInt32, report: MediaPlaneReport) -> NetworkQualitySample? {
        guard let current = report.sources[sourceId] else { return nil }
        let previous = previousSources[sourceId] ?? SourceReport()
        let packets = current.packets &- min(previous.packets, current.packets)
        let lost = max(0, current.packetsLost - previous.packetsLost)
        let fraction = lost > 0 ? Double(lost) / Double(Int64(packets) + lost) : 0
        return NetworkQualitySample(
            packets: packets, fractionLost: fraction, jitterMs: current.jitterMs, idleMs: current.idleMs, everReceived: current.packets > 0)
    }

    /// A subscriber's track as the relay sent it and the subscriber reported it over the last window.
    func downlinkSample(sink: SinkTrack, report: MediaPlaneReport) -> NetworkQualitySample? {
        guard let current = report.sinks[sink.id], current.bound else { return nil }
        let previous = previousSinks[sink.id] ?? SinkReport()
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
