/// Every family the relay exports. Names are stable: a change is listed in OPERATIONS.md.
extension RelayMetric {
    // Rooms and sessions, read from the relay core at each scrape.
    static let rooms = gauge("pkrelay_rooms", "Rooms with at least one user.")
    static let users = gauge("pkrelay_users", "Users in rooms (visible or not).")
    static let connections = gauge("pkrelay_connections", "Open control-channel connections.")
    static let transports = gauge("pkrelay_transports", "Open media transports.")
    static let streams = gauge("pkrelay_streams", "Published streams.")
    static let subscriptions = gauge("pkrelay_subscriptions", "Subscriptions.")
    static let accepting = gauge("pkrelay_accepting", "1 while joins are accepted, 0 while draining.")
    static let forwards = gauge("pkrelay_forwards", "Forward targets being forwarded into.")
    static let links = gauge("pkrelay_links", "Two-way PK links.")

    // Control requests and what happened in the rooms, counted as it happens.
    static let controlRequests = counter(
        "pkrelay_control_requests_total",
        "Control requests answered, by method and code (0 for success, else the error code; method \"unknown\" when no known method was named).")
    static let controlRequestSeconds = histogram(
        "pkrelay_control_request_seconds", "Time to handle a control request, by method.",
        buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1])
    static let firstKeyframeSeconds = histogram(
        "pkrelay_forward_first_keyframe_seconds", "Time from a forward or link start to its first keyframe reaching a target-room subscriber.",
        buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10])
    static let usersJoined = counter("pkrelay_users_joined_total", "Users who joined a room.")
    static let usersLeft = counter("pkrelay_users_left_total", "Users who left a room, by reason.")
    static let forwardStateChanges = counter("pkrelay_forward_state_changes_total", "Forward targets that started (success), failed or stopped (idle).")
    static let linksConnected = counter("pkrelay_links_connected_total", "Two-way PK links made.")
    static let linksEnded = counter("pkrelay_links_ended_total", "PK links ended, by reason.")
    static let invitations = counter("pkrelay_invitations_total", "Invitations that reached a final state, by outcome.")

    // The data plane, from the media plane's latest report.
    static let packetsIn = counter("pkrelay_packets_in_total", "Datagrams received on media transports.")
    static let bytesIn = counter("pkrelay_bytes_in_total", "Bytes received on media transports.")
    static let packetsOut = counter("pkrelay_packets_out_total", "Datagrams sent on media transports.")
    static let bytesOut = counter("pkrelay_bytes_out_total", "Bytes sent on media transports.")
    static let sendCalls = counter("pkrelay_media_send_calls_total", "sendmmsg calls made for media.")
    static let sendMessages = counter(
        "pkrelay_media_send_messages_total",
        "Messages handed to the kernel for media: one per datagram, or one per run of equal-size datagrams with GSO; packets_out over this "
            + "is datagrams per message."
    )
    static let gsoFallbacks = counter("pkrelay_media_gso_fallbacks_total", "GSO messages the kernel refused, sent again datagram by datagram.")
    static let receiveMessages = counter(
        "pkrelay_media_receive_messages_total",
        "Messages read from media sockets: one per datagram, or with GRO one per run of a sender's datagrams; packets_in over this is datagrams per message.")
    static let gro = gauge("pkrelay_media_gro", "1 when media arrives with UDP generic receive offload (media.gro), else 0.")
    static let paddedPackets = counter(
        "pkrelay_media_padded_packets_total", "Video packets padded to go on with a subscriber's run of equal-size datagrams (media.gsoPadding).")
    static let paddingBytes = counter("pkrelay_media_padding_bytes_total", "Padding bytes those packets carried.")
    static let gso = gauge("pkrelay_media_gso", "1 when media leaves with UDP generic segmentation offload (media.gso), else 0.")
    static let sendOnlySockets = gauge("pkrelay_media_send_only_sockets", "1 when media sockets send through send-only twins (media.sendOnlySockets), else 0.")
    static let keyframeRequestsReceived = counter("pkrelay_keyframe_requests_received_total", "PLI/FIR received from subscribers.")
    static let keyframeRequestsSent = counter("pkrelay_keyframe_requests_sent_total", "PLI sent to publishers after throttling.")
    static let keyframeReplays = counter(
        "pkrelay_keyframe_replays_total", "Video subscriptions started from their publisher's last keyframe, replayed, instead of a new request.")
    static let nacksReceived = counter("pkrelay_nacks_received_total", "Sequence numbers NACKed by subscribers.")
    static let retransmissions = counter("pkrelay_retransmissions_total", "Packets retransmitted from the buffer.")
    static let retransmissionsMissed = counter("pkrelay_retransmissions_missed_total", "NACKed packets no longer in the buffer.")
    static let nacksSent = counter("pkrelay_nacks_sent_total", "NACKs sent to publishers for packets that did not arrive.")
    static let retransmissionsReceived = counter("pkrelay_retransmissions_received_total", "Packets received on publishers' RTX (RFC 4588) streams.")
    static let transportFeedbackSent = counter(
        "pkrelay_transport_feedback_sent_total", "Transport-wide congestion control feedback packets sent to publishers.")
    static let transportFeedbackReceived = counter(
        "pkrelay_transport_feedback_received_total", "Transport-wide congestion control feedback packets received from subscribers.")
    static let probeClusters = counter(
        "pkrelay_probe_clusters_total", "Probe clusters sent to subscribers to find headroom above their bandwidth estimates.")
    static let probePackets = counter("pkrelay_probe_packets_total", "Packets sent in probe clusters (RTX copies of recent packets, or padding).")
    static let pacedPackets = counter(
        "pkrelay_paced_packets_total", "Packets a subscriber's pacer held back to spread a burst (counted each time it held one).")
    static let iceTCPConnections = counter(
        "pkrelay_ice_tcp_connections_total", "ICE-TCP connections on the WebRTC ports, by outcome (accepted, refused past a limit, closed).")
    static let transportPaths = gauge(
        "pkrelay_transport_paths",
        "Transports with a known client address, by how the client reaches them: protocol (udp, tcp for ICE-TCP) and family (ipv4, ipv6).")
    static let ipv6PeersReclaimed = counter(
        "pkrelay_ipv6_peers_reclaimed_total",
        "Entries of the media threads' IPv6 peer tables freed because every entry was taken (checks from more IPv6 addresses than a thread names).")
    static let subscriberEstimates = gauge(
        "pkrelay_subscriber_estimates", "Subscriber transports with a bandwidth estimate, by what drives it (transport_wide, receiver_reports).")
    static let subscriberEstimatesAtMost = gauge(
        "pkrelay_subscriber_estimates_at_most", "Subscriber transports whose bandwidth estimate is at most bps bits per second.")
    static let videoLayerChanges = counter(
        "pkrelay_video_layer_changes_total",
        "Subscriptions' video moved by the layer allocator: down (fallback) or up (recovery) for bandwidth, a limit lifted at the subscriber's request (requested), or around an encoding its publisher stopped (publisher)."
    )
    static let videoLimited = gauge(
        "pkrelay_video_subscriptions_limited", "Subscriptions whose video the layer allocator now limits, by limit (medium, small, paused).")
    static let droppedPackets = counter("pkrelay_dropped_packets_total", "Packets dropped, by reason.")
    static let srtpFailures = counter("pkrelay_srtp_failures_total", "SRTP/SRTCP packets that failed to authenticate or decrypt.")

    // The process.
    static let processCPUSeconds = counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.")
    static let cpuCores = gauge("pkrelay_cpu_cores", "CPU cores the relay may run on (its affinity mask).")
    static let mediaThreadCPUSeconds = counter(
        "pkrelay_media_thread_cpu_seconds_total", "CPU time of each media thread (data-plane shard), sampled by the thread once a second.")

    // Webhooks and limits.
    static let webhookDeliveries = counter("pkrelay_webhook_deliveries_total", "Webhook events delivered (answered with 2xx).")
    static let webhookFailures = counter("pkrelay_webhook_failures_total", "Webhook delivery attempts that failed (error, timeout or non-2xx).")
    static let webhookDropped = counter("pkrelay_webhook_dropped_total", "Webhook events not delivered, by reason.")
    static let webhookQueueDepth = gauge("pkrelay_webhook_queue_depth", "Webhook events waiting or in flight.")
    static let limitRefusals = counter("pkrelay_limit_refusals_total", "Connections, requests and admin calls refused by a limit, by limit.")

    // A cluster node only.
    static let clusterServing = gauge("pkrelay_cluster_serving", "1 while this node holds a live cluster lease and serves rooms.")
    static let clusterRooms = gauge("pkrelay_cluster_rooms", "Rooms placed on this node under its lease.")
    static let clusterLeaseLosses = counter(
        "pkrelay_cluster_lease_losses_total", "Leases lost (refused on renewal, or not renewed in time); each dismissed every room.")
    static let clusterRenewalFailures = counter("pkrelay_cluster_renewal_failures_total", "Lease renewals that did not reach the database or got no answer.")
    static let clusterRedirects = counter("pkrelay_cluster_redirects_total", "Joins answered 4030: the room lives on another node.")
    static let clusterPeers = gauge("pkrelay_cluster_peers", "Nodes this node has a ready node-to-node connection with.")
    static let clusterPeerLosses = counter("pkrelay_cluster_peer_losses_total", "Ready node-to-node connections lost (closed, or silent for 3 s).")
    static let clusterEdgeRooms = gauge("pkrelay_cluster_edge_rooms", "Rooms this node serves as an edge of the node that holds them.")
    static let clusterEdges = gauge("pkrelay_cluster_edges", "Edges following the rooms this node holds (one per room and edge node).")

    /// Every family, in the order OPERATIONS.md lists them.
    static let all: [RelayMetric] = [
        rooms, users, connections, transports, streams, subscriptions, accepting, forwards, links,
        controlRequests, controlRequestSeconds, firstKeyframeSeconds, usersJoined, usersLeft, forwardStateChanges, linksConnected, linksEnded, invitations,
        packetsIn, bytesIn, packetsOut, bytesOut, sendCalls, sendMessages, gsoFallbacks, paddedPackets, paddingBytes, receiveMessages, gro, gso,
        sendOnlySockets,
        keyframeRequestsReceived, keyframeRequestsSent, keyframeReplays, nacksReceived, retransmissions, retransmissionsMissed, nacksSent,
        retransmissionsReceived,
        transportFeedbackSent, transportFeedbackReceived, probeClusters, probePackets, pacedPackets, iceTCPConnections, ipv6PeersReclaimed, transportPaths,
        subscriberEstimates,
        subscriberEstimatesAtMost,
        videoLayerChanges, videoLimited, droppedPackets, srtpFailures, processCPUSeconds, cpuCores, mediaThreadCPUSeconds,
        webhookDeliveries, webhookFailures, webhookDropped, webhookQueueDepth, limitRefusals,
        clusterServing, clusterRooms, clusterLeaseLosses, clusterRenewalFailures, clusterRedirects, clusterPeers, clusterPeerLosses, clusterEdgeRooms,
        clusterEdges,
    ]

    /// The families by name, for the metrics factory.
    static let byName: [String: RelayMetric] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
