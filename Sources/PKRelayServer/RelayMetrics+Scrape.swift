import MediaPlane

extension RelayMetrics {
    /// Copies the figures kept outside the registry into it; called once per scrape, before
    /// `exposition()`. Concurrent scrapes are safe: each counter grows by what the other did not.
    func update(overview: RelayOverview, webhooks: WebhookStats, refusals: [(ResourceLimit, UInt64)], cluster: ClusterStatus?) {
        set(.rooms, to: Double(overview.rooms))
        set(.users, to: Double(overview.users))
        set(.connections, to: Double(overview.connections))
        set(.transports, to: Double(overview.transports))
        set(.streams, to: Double(overview.publications))
        set(.subscriptions, to: Double(overview.subscriptions))
        set(.accepting, to: overview.accepting ? 1 : 0)
        set(.forwards, to: Double(overview.forwardTargets))
        set(.links, to: Double(overview.links))

        let counters = overview.media.counters
        mirror(.packetsIn, total: counters.packetsIn)
        mirror(.bytesIn, total: counters.bytesIn)
        mirror(.packetsOut, total: counters.packetsOut)
        mirror(.bytesOut, total: counters.bytesOut)
        mirror(.sendCalls, total: counters.sendCalls)
        mirror(.sendMessages, total: counters.sendMessages)
        mirror(.gsoFallbacks, total: counters.segmentationFallbacks)
        mirror(.paddedPackets, total: counters.paddedPackets)
        mirror(.paddingBytes, total: counters.paddingBytes)
        mirror(.receiveMessages, total: counters.receiveMessages)
        set(.gro, to: overview.receiveOffload ? 1 : 0)
        set(.gso, to: overview.segmentationOffload ? 1 : 0)
        set(.sendOnlySockets, to: overview.sendOnlySockets ? 1 : 0)
        mirror(.keyframeRequestsReceived, total: counters.keyframeRequestsReceived)
        mirror(.keyframeRequestsSent, total: counters.keyframeRequestsSent)
        mirror(.keyframeReplays, total: counters.keyframeReplays)
        mirror(.nacksReceived, total: counters.nacksReceived)
        mirror(.retransmissions, total: counters.retransmissionsSent)
        mirror(.retransmissionsMissed, total: counters.retransmissionsMissed)
        mirror(.nacksSent, total: counters.nacksSent)
        mirror(.transportFeedbackSent, total: counters.transportFeedbackSent)
        mirror(.transportFeedbackReceived, total: counters.transportFeedbackReceived)
        mirror(.probeClusters, total: counters.probeClusters)
        mirror(.probePackets, total: counters.probePackets)
        mirror(.pacedPackets, total: counters.pacedPackets)
        mirror(.iceTCPConnections, [("outcome", "accepted")], total: counters.streamConnectionsAccepted)
        mirror(.iceTCPConnections, [("outcome", "refused")], total: counters.streamConnectionsRefused)
        mirror(.iceTCPConnections, [("outcome", "closed")], total: counters.streamConnectionsClosed)
        mirror(.ipv6PeersReclaimed, total: counters.ipv6PeersReclaimed)
        let paths = overview.media.transports.values.compactMap { report in report.remoteProtocol.map { ($0, report.remoteFamily ?? "ipv4") } }
        for path in [("udp", "ipv4"), ("udp", "ipv6"), ("tcp", "ipv4"), ("tcp", "ipv6")] {
            set(.transportPaths, [("protocol", path.0), ("family", path.1)], to: Double(paths.count { $0 == path }))
        }
        let estimates = overview.media.transports.values.compactMap(\.bandwidthEstimate)
        for source in BandwidthEstimateReport.Source.allCases {
            set(.subscriberEstimates, [("source", source.rawValue)], to: Double(estimates.count { $0.source == source }))
        }
        for bound in Self.estimateBounds {
            set(.subscriberEstimatesAtMost, [("bps", String(bound))], to: Double(estimates.count { $0.estimateBps <= bound }))
        }
        mirror(.videoLayerChanges, [("reason", "fallback")], total: overview.videoFallbacks)
        mirror(.videoLayerChanges, [("reason", "recovery")], total: overview.videoRecoveries)
        mirror(.videoLayerChanges, [("reason", "requested")], total: overview.videoRequestedChanges)
        mirror(.videoLayerChanges, [("reason", "publisher")], total: overview.videoPublisherChanges)
        set(.videoLimited, [("limit", "small")], to: Double(overview.videoLimitedToSmall))
        set(.videoLimited, [("limit", "medium")], to: Double(overview.videoLimitedToMedium))
        set(.videoLimited, [("limit", "paused")], to: Double(overview.videoPaused))
        mirror(.retransmissionsReceived, total: counters.retransmissionsReceived)
        for reason in DropReason.allCases { mirror(.droppedPackets, [("reason", reason.label)], total: counters.drops(reason)) }
        let srtp = [DropReason.srtpAuthenticationFailed, .srtpReplayed, .srtpMalformed, .srtpOther].reduce(UInt64(0)) { $0 &+ counters.drops($1) }
        mirror(.srtpFailures, total: srtp)

        mirror(.processCPUSeconds, total: overview.processCPUSeconds)
        set(.cpuCores, to: Double(overview.cpuCores))
        for (thread, seconds) in overview.mediaThreadCPUSeconds.enumerated() {
            mirror(.mediaThreadCPUSeconds, [("thread", String(thread))], total: seconds)
        }

        mirror(.webhookDeliveries, total: webhooks.delivered)
        mirror(.webhookFailures, total: webhooks.failedAttempts)
        mirror(.webhookDropped, [("reason", "queue_full")], total: webhooks.dropped)
        mirror(.webhookDropped, [("reason", "gave_up")], total: webhooks.givenUp)
        set(.webhookQueueDepth, to: Double(webhooks.queued))
        for (limit, count) in refusals { mirror(.limitRefusals, [("limit", limit.label)], total: count) }

        if let cluster {
            set(.clusterServing, [("node", cluster.nodeId)], to: cluster.serving ? 1 : 0)
            set(.clusterRooms, to: Double(cluster.rooms))
            mirror(.clusterLeaseLosses, total: cluster.leaseLosses)
            mirror(.clusterRenewalFailures, total: cluster.renewalFailures)
            mirror(.clusterRedirects, total: cluster.redirects)
            set(.clusterPeers, to: Double(cluster.peers.count))
            mirror(.clusterPeerLosses, total: cluster.peerLosses)
            set(.clusterEdgeRooms, to: Double(overview.edgeRooms))
            set(.clusterEdges, to: Double(overview.edgesFollowing))
        }
    }
}
