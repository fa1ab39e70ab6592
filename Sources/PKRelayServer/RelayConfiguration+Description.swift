import Auth
import Cluster
import Logging
import MediaPlane
import RoomEngine

extension RelayConfiguration {
    /// The effective settings as YAML-like text, secrets redacted.
    public var effectiveSettings: String {
        """
        control:
          host: \(controlHost)
          port: \(controlPort)
          maxMessageBytes: \(maxMessageBytes)
          maxTransportsPerConnection: \(maxTransportsPerConnection)
          requestsPerSecond: \(requestsPerSecond)
          joinsPerSecond: \(joinsPerSecond)
          maxConnections: \(maxConnections)
          maxConnectionsPerAddress: \(maxConnectionsPerAddress)
        admin:
          host: \(adminHost)
          port: \(adminPort)
          requestsPerSecond: \(adminRequestsPerSecond)
          maxBodyBytes: \(adminMaxBodyBytes)
        media:
          bindAddress: \(media.bindAddress)
          announcedAddress: \(media.announcedAddress ?? media.bindAddress)
          bindAddress6: \(media.bindAddress6.map { "\"\($0)\"" } ?? "null  # IPv4 only")
          announcedAddress6: \((media.announcedAddress6 ?? media.bindAddress6).map { "\"\($0)\"" } ?? "null")
          portRangeStart: \(media.portRange.lowerBound)
          portRangeEnd: \(media.portRange.upperBound)
          allowPlainRTP: \(allowPlainRTP)
          congestionFeedback: \(congestionFeedback)
          layerAllocation: \(layerAllocation)
          srtpProfiles: [\(srtpProfiles.map(\.rawValue).joined(separator: ", "))]
          receiveBufferBytes: \(media.receiveBufferBytes)
          sendBufferBytes: \(media.sendBufferBytes)
          receiveBatchSize: \(media.receiveBatchSize)
          sendBatchSize: \(media.sendBatchSize)
          gso: \(media.segmentationOffload.rawValue)
          gsoPadding: \(media.segmentPaddingBytes)
          gro: \(media.receiveOffload.rawValue)
          sendOnlySockets: \(media.sendOnlySockets)
          connectedSockets: \(media.connectedSockets)
          retransmissionBufferPackets: \(media.retransmissionBufferPackets)
          keyframeRequestIntervalMs: \(media.keyframeRequestIntervalMs)
          webrtcEnabled: \(media.webRTCPort != nil)
          webrtcPort: \(media.webRTCPort ?? 7702)\(webRTCPortsComment)
          webrtcTCP: \(media.webRTCTCP)
          webrtcTCPConnections: \(media.webRTCTCPConnections)
          webrtcTCPConnectionsPerAddress: \(media.webRTCTCPConnectionsPerAddress)
          iceTimeoutSeconds: \(media.iceTimeoutMs / 1000)
          threads: \(media.threads)
          spreadRoomAfter: \(media.spreadRoomAfter)
        rooms:
          maxVisibleUsers: \(rooms.maximumVisibleUsersPerRoom)
          maxPublishers: \(rooms.maximumPublishersPerRoom)
          maxSubscriptionsPerUser: \(rooms.maximumSubscriptionsPerUser)
          keepAliveTimeoutSeconds: \(rooms.keepAliveTimeoutMilliseconds / 1000)
          tokenExpiryWarningSeconds: \(rooms.tokenExpiryWarningMilliseconds / 1000)
          maxForwardTargetsPerUser: \(rooms.maximumForwardTargetsPerUser)
          maxLinksPerUser: \(rooms.maximumLinksPerUser)
          maxLinksPerRoom: \(rooms.maximumLinksPerRoom)
          autoRejectBusyInvitations: \(rooms.autoRejectBusyInvitations)
          invitationTimeoutSeconds: \(rooms.invitationDefaultTimeoutSeconds)
          maxMessageBytes: \(rooms.maximumMessageBytes)
          maxMessagesPerSecond: \(rooms.maximumMessagesPerSecond)
        auth:
          leewaySeconds: \(tokenLeewaySeconds)
          keys: [\(usesDevelopmentKey ? "dev (DEVELOPMENT KEY)" : keys.map { "\($0.id) (secret redacted)" }.joined(separator: ", "))]
        logging:
          level: \(logLevel.rawValue)
          format: \(logFormat)
        shutdown:
          graceSeconds: \(shutdownGraceSeconds)
        ice:
          servers: [\(iceServers.map(\.settingsDescription).joined(separator: ", "))]
          credentialSeconds: \(iceCredentialSeconds)
        webhooks:
          urls: [\(webhooks.urls.joined(separator: ", "))]
          secret: \(webhooks.secret.isEmpty ? "(none)" : "(redacted)")
          requestTimeoutMs: \(webhooks.requestTimeoutMs)
          retryForSeconds: \(webhooks.retryForSeconds)
          initialBackoffMs: \(webhooks.initialBackoffMs)
          maxBackoffMs: \(webhooks.maxBackoffMs)
          queueSize: \(webhooks.queueSize)
          concurrency: \(webhooks.concurrency)
        cluster:
          nodeId: \(cluster.isEnabled ? cluster.nodeId : "(none: a single node)")
          databaseURL: \(cluster.isEnabled ? ((try? DatabaseAddress(url: cluster.databaseURL))?.redacted ?? "(invalid)") : "(none)")
          publicControlURL: \(cluster.publicControlURL.isEmpty ? "(the control listener's address)" : cluster.publicControlURL)
          capacity: \(cluster.capacity)
          leaseSeconds: \(cluster.leaseSeconds)
          renewSeconds: \(cluster.renewSeconds)
          edges: \(cluster.edges)
          edgeAfterAudience: \(cluster.edgeAfterAudience == 0 ? "0 (audience stays on the room's node)" : "\(cluster.edgeAfterAudience)")
        """
    }
}
