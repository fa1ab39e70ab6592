import MediaPlane
import RoomEngine

/// Renders relay figures in the Prometheus text exposition format.
enum MetricsRenderer {
    static func render(_ overview: RelayOverview) -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ value: Int) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) gauge")
            lines.append("\(name) \(value)")
        }
        func counter(_ name: String, _ help: String, _ value: UInt64) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) counter")
            lines.append("\(name) \(value)")
        }
        gauge("pkrelay_rooms", "Rooms with at least one user.", overview.rooms)
        gauge("pkrelay_users", "Users in rooms (visible or not).", overview.users)
        gauge("pkrelay_connections", "Open control-channel connections.", overview.connections)
        gauge("pkrelay_transports", "Open media transports.", overview.transports)
        gauge("pkrelay_streams", "Published streams.", overview.publications)
        gauge("pkrelay_subscriptions", "Subscriptions.", overview.subscriptions)
        gauge("pkrelay_accepting", "1 while joins are accepted, 0 while draining.", overview.accepting ? 1 : 0)
        gauge("pkrelay_forwards", "Forward targets being forwarded into.", overview.forwardTargets)
        gauge("pkrelay_links", "Two-way PK links.", overview.links)
        lines += overview.firstKeyframeHistogram.render(
            name: "pkrelay_forward_first_keyframe_seconds", help: "Time from a forward or link start to its first keyframe reaching a target-room subscriber.")
        lines.append("# HELP pkrelay_control_request_seconds Time to handle a control request, by method.")
        lines.append("# TYPE pkrelay_control_request_seconds histogram")
        for method in overview.requestHistograms.keys.sorted() {
            lines += overview.requestHistograms[method]!.render(name: "pkrelay_control_request_seconds", help: "", labels: "method=\"\(method)\"").dropFirst(2)
        }
        lines += renderDomainCounters(overview.domainCounters)
        let counters = overview.media.counters
        counter("pkrelay_packets_in_total", "Datagrams received on media transports.", counters.packetsIn)
        counter("pkrelay_bytes_in_total", "Bytes received on media transports.", counters.bytesIn)
        counter("pkrelay_packets_out_total", "Datagrams sent on media transports.", counters.packetsOut)
        counter("pkrelay_bytes_out_total", "Bytes sent on media transports.", counters.bytesOut)
        counter("pkrelay_media_send_calls_total", "sendmmsg calls made for media.", counters.sendCalls)
        counter(
            "pkrelay_media_send_messages_total",
            "Messages handed to the kernel for media: one per datagram, or one per run of equal-size datagrams with GSO; packets_out over this is datagrams per message.",
            counters.sendMessages)
        counter("pkrelay_media_gso_fallbacks_total", "GSO messages the kernel refused, sent again datagram by datagram.", counters.segmentationFallbacks)
        counter(
            "pkrelay_media_receive_messages_total",
            "Messages read from media sockets: one per datagram, or with GRO one per run of a sender's datagrams; packets_in over this is datagrams per message.",
            counters.receiveMessages)
        gauge("pkrelay_media_gro", "1 when media arrives with UDP generic receive offload (media.gro), else 0.", overview.receiveOffload ? 1 : 0)
        gauge("pkrelay_media_gso", "1 when media leaves with UDP generic segmentation offload (media.gso), else 0.", overview.segmentationOffload ? 1 : 0)
        counter("pkrelay_keyframe_requests_received_total", "PLI/FIR received from subscribers.", counters.keyframeRequestsReceived)
        counter("pkrelay_keyframe_requests_sent_total", "PLI sent to publishers after throttling.", counters.keyframeRequestsSent)
        counter("pkrelay_nacks_received_total", "Sequence numbers NACKed by subscribers.", counters.nacksReceived)
        counter("pkrelay_retransmissions_total", "Packets retransmitted from the buffer.", counters.retransmissionsSent)
        counter("pkrelay_retransmissions_missed_total", "NACKed packets no longer in the buffer.", counters.retransmissionsMissed)
        counter("pkrelay_nacks_sent_total", "NACKs sent to publishers for packets that did not arrive.", counters.nacksSent)
        counter("pkrelay_retransmissions_received_total", "Packets received on publishers' RTX (RFC 4588) streams.", counters.retransmissionsReceived)
        lines.append("# HELP pkrelay_dropped_packets_total Packets dropped, by reason.")
        lines.append("# TYPE pkrelay_dropped_packets_total counter")
        for reason in DropReason.allCases {
            lines.append("pkrelay_dropped_packets_total{reason=\"\(reason.label)\"} \(counters.drops(reason))")
        }
        lines.append("# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.")
        lines.append("# TYPE process_cpu_seconds_total counter")
        lines.append("process_cpu_seconds_total \(overview.processCPUSeconds)")
        gauge("pkrelay_cpu_cores", "CPU cores the relay may run on (its affinity mask).", overview.cpuCores)
        lines.append("# HELP pkrelay_media_thread_cpu_seconds_total CPU time of each media thread (data-plane shard), sampled by the thread once a second.")
        lines.append("# TYPE pkrelay_media_thread_cpu_seconds_total counter")
        for (thread, seconds) in overview.mediaThreadCPUSeconds.enumerated() {
            lines.append("pkrelay_media_thread_cpu_seconds_total{thread=\"\(thread)\"} \(seconds)")
        }
        lines.append("# HELP pkrelay_srtp_failures_total SRTP/SRTCP packets that failed to authenticate or decrypt.")
        lines.append("# TYPE pkrelay_srtp_failures_total counter")
        let srtp = counters.drops(.srtpAuthenticationFailed) + counters.drops(.srtpReplayed) + counters.drops(.srtpMalformed) + counters.drops(.srtpOther)
        lines.append("pkrelay_srtp_failures_total \(srtp)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Lifetime counts of joins, departures, forward states, links and invitations.
    static func renderDomainCounters(_ counters: DomainEventCounters) -> [String] {
        var lines: [String] = []
        func family(_ name: String, _ help: String, _ label: String, _ values: [(String, UInt64)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) counter")
            for (value, count) in values.sorted(by: { $0.0 < $1.0 }) { lines.append("\(name){\(label)=\"\(value)\"} \(count)") }
        }
        lines.append("# HELP pkrelay_users_joined_total Users who joined a room.")
        lines.append("# TYPE pkrelay_users_joined_total counter")
        lines.append("pkrelay_users_joined_total \(counters.usersJoined)")
        family("pkrelay_users_left_total", "Users who left a room, by reason.", "reason", DepartureReason.allCases.map { ($0.rawValue, counters.usersLeft[$0] ?? 0) })
        family(
            "pkrelay_forward_state_changes_total", "Forward targets that started (success), failed or stopped (idle).", "state",
            [("idle", counters.forwardStates[.idle] ?? 0), ("success", counters.forwardStates[.success] ?? 0), ("failure", counters.forwardStates[.failure] ?? 0)])
        lines.append("# HELP pkrelay_links_connected_total Two-way PK links made.")
        lines.append("# TYPE pkrelay_links_connected_total counter")
        lines.append("pkrelay_links_connected_total \(counters.linksConnected)")
        family("pkrelay_links_ended_total", "PK links ended, by reason.", "reason", counters.linksEnded.map { ($0.key, $0.value) })
        family("pkrelay_invitations_total", "Invitations that reached a final state, by outcome.", "outcome", counters.invitations.map { ($0.key, $0.value) })
        return lines
    }

    /// Refusals by limit (`ResourceLimit`), zeros included so that alerts can be written before
    /// the first refusal.
    static func renderLimitRefusals(_ counts: [(ResourceLimit, UInt64)]) -> String {
        var lines = [
            "# HELP pkrelay_limit_refusals_total Connections, requests and admin calls refused by a limit, by limit.",
            "# TYPE pkrelay_limit_refusals_total counter",
        ]
        for (limit, count) in counts { lines.append("pkrelay_limit_refusals_total{limit=\"\(limit.label)\"} \(count)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cluster families; nothing for a single node.
    static func renderCluster(_ status: ClusterStatus?) -> String {
        guard let status else { return "" }
        return """
            # HELP pkrelay_cluster_serving 1 while this node holds a live cluster lease and serves rooms.
            # TYPE pkrelay_cluster_serving gauge
            pkrelay_cluster_serving{node="\(status.nodeId)"} \(status.serving ? 1 : 0)
            # HELP pkrelay_cluster_rooms Rooms placed on this node under its lease.
            # TYPE pkrelay_cluster_rooms gauge
            pkrelay_cluster_rooms \(status.rooms)
            # HELP pkrelay_cluster_lease_losses_total Leases lost (refused on renewal, or not renewed in time); each dismissed every room.
            # TYPE pkrelay_cluster_lease_losses_total counter
            pkrelay_cluster_lease_losses_total \(status.leaseLosses)
            # HELP pkrelay_cluster_renewal_failures_total Lease renewals that did not reach the database or got no answer.
            # TYPE pkrelay_cluster_renewal_failures_total counter
            pkrelay_cluster_renewal_failures_total \(status.renewalFailures)
            # HELP pkrelay_cluster_redirects_total Joins answered 4030: the room lives on another node.
            # TYPE pkrelay_cluster_redirects_total counter
            pkrelay_cluster_redirects_total \(status.redirects)
            # HELP pkrelay_cluster_peers Nodes this node has a ready node-to-node connection with.
            # TYPE pkrelay_cluster_peers gauge
            pkrelay_cluster_peers \(status.peers.count)
            # HELP pkrelay_cluster_peer_losses_total Ready node-to-node connections lost (closed, or silent for 3 s).
            # TYPE pkrelay_cluster_peer_losses_total counter
            pkrelay_cluster_peer_losses_total \(status.peerLosses)

            """
    }

    /// The webhook families.
    static func renderWebhooks(_ stats: WebhookStats) -> String {
        """
        # HELP pkrelay_webhook_deliveries_total Webhook events delivered (answered with 2xx).
        # TYPE pkrelay_webhook_deliveries_total counter
        pkrelay_webhook_deliveries_total \(stats.delivered)
        # HELP pkrelay_webhook_failures_total Webhook delivery attempts that failed (error, timeout or non-2xx).
        # TYPE pkrelay_webhook_failures_total counter
        pkrelay_webhook_failures_total \(stats.failedAttempts)
        # HELP pkrelay_webhook_dropped_total Webhook events not delivered, by reason.
        # TYPE pkrelay_webhook_dropped_total counter
        pkrelay_webhook_dropped_total{reason="queue_full"} \(stats.dropped)
        pkrelay_webhook_dropped_total{reason="gave_up"} \(stats.givenUp)
        # HELP pkrelay_webhook_queue_depth Webhook events waiting or in flight.
        # TYPE pkrelay_webhook_queue_depth gauge
        pkrelay_webhook_queue_depth \(stats.queued)

        """
    }
}
