import CSocketShims
import MediaPlane
import Protocol
import RoomEngine

extension RelayCore {
    /// The caller's transports and tracks with the newest media figures.
    func stats(for session: SessionID, roomId: String?) -> GetStatsResult {
        let report = media.latestReport()
        var transports: [TransportStats] = []
        for (id, port) in (sessions[session]?.transports ?? [:]).sorted(by: { $0.key < $1.key }) {
            let figures = report.transports[id] ?? TransportReport()
            transports.append(
                TransportStats(
                    transportId: id, port: port, remote: figures.remote, packetsIn: figures.packetsIn, bytesIn: figures.bytesIn,
                    packetsOut: figures.packetsOut, bytesOut: figures.bytesOut,
                    bandwidthEstimate: figures.bandwidthEstimate.map(BandwidthEstimateStats.init), remoteProtocol: figures.remoteProtocol))
        }
        var published: [PublishedTrackStats] = []
        var subscribed: [SubscribedTrackStats] = []
        for room in engine.rooms(of: session) where roomId == nil || roomId == room {
            guard let member = engine.snapshot(session: session, roomId: room) else { continue }
            for index in StreamIndex.allCases {
                for track in member.publications[index] ?? [] {
                    let figures = report.sources[track.id] ?? SourceReport()
                    published.append(
                        PublishedTrackStats(
                            roomId: room, streamIndex: index, kind: track.kind, ssrc: track.ssrc != 0 ? track.ssrc : figures.ssrc, packets: figures.packets,
                            bytes: figures.bytes,
                            packetsLost: figures.packetsLost, jitterMs: figures.jitterMs, keyframes: figures.keyframes,
                            keyframeRequestsSent: figures.keyframeRequestsSent, idleMs: figures.idleMs))
                }
            }
            for subscription in member.subscriptions {
                for sink in subscription.sinks {
                    let figures = report.sinks[sink.id] ?? SinkReport()
                    var entry = SubscribedTrackStats(
                        roomId: room, userId: subscription.publisherUserId, streamIndex: subscription.streamIndex, kind: sink.kind,
                        ssrc: sink.outputSSRC, packets: figures.packets, bytes: figures.bytes, retransmissions: figures.retransmissions,
                        fractionLost: figures.fractionLost, cumulativeLost: figures.cumulativeLost, roundTripTimeMs: figures.roundTripTimeMs)
                    if sink.kind == .video {
                        entry.videoStreamType = subscription.videoStreamType
                        entry.videoEnabled = subscription.videoEnabled
                    }
                    subscribed.append(entry)
                }
            }
        }
        return GetStatsResult(generatedAt: report.generatedAtMs, transports: transports, published: published, subscribed: subscribed)
    }

    /// Relay-wide figures for /metrics and the health endpoints.
    public func overview() -> RelayOverview {
        let totals = engine.totals
        let forwarding = engine.forwardingTotals
        let status = media.status
        var overview = RelayOverview(
            rooms: totals.rooms, users: totals.users, publications: totals.publications, subscriptions: totals.subscriptions,
            connections: sessions.count, transports: status.transports, udpPorts: status.udpPortsInUse, accepting: accepting, media: media.latestReport(),
            forwardTargets: forwarding.forwardTargets, links: forwarding.links, segmentationOffload: status.segmentationOffload,
            receiveOffload: status.receiveOffload, sendOnlySockets: status.sendOnlySockets,
            processCPUSeconds: Double(pkr_process_cpu_us()) / 1e6, cpuCores: Int(pkr_available_cpus()),
            mediaThreadCPUSeconds: status.threadCPUSeconds)
        overview.videoFallbacks = layerAllocation.fallbacks
        overview.videoRecoveries = layerAllocation.recoveries
        overview.videoRequestedChanges = layerAllocation.requestedChanges
        overview.videoPublisherChanges = layerAllocation.publisherChanges
        overview.videoLimitedToSmall = layerAllocation.limited[.small] ?? 0
        overview.videoLimitedToMedium = layerAllocation.limited[.medium] ?? 0
        overview.videoPaused = layerAllocation.limited[.paused] ?? 0
        (overview.edgeRooms, overview.edgesFollowing) = engine.edgeTotals
        return overview
    }
}
