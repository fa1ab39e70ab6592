import Auth
import Cluster
import Foundation
import Logging
import MediaPlane
import Protocol
import RoomEngine
import SecureTransport
import Yams

extension RelayConfiguration {
    /// Reads a YAML configuration over the built-in defaults. Unknown keys and bad values are
    /// refused with the key's dotted path and the reason.
    ///
    /// - Parameter environment: `PKRELAY_*` variables override the file's keys (see
    ///   ``environmentVariable(for:)``); other variables are ignored.
    public static func load(yaml: String, environment: [String: String] = [:]) throws(ConfigurationError) -> RelayConfiguration {
        var document = try yamlDocument(yaml, key: "", what: "valid YAML")
        document = try applyEnvironment(environment, to: document)
        var root = try ConfigurationReader(document, path: "")
        var configuration = RelayConfiguration()

        var control = try root.section("control")
        configuration.controlHost = try control.string("host", default: configuration.controlHost)!
        configuration.controlPort = try listenPort(&control, default: configuration.controlPort)
        configuration.maxMessageBytes = try control.int("maxMessageBytes", default: configuration.maxMessageBytes, in: 1024...(1 << 20))
        configuration.maxTransportsPerConnection = try control.int("maxTransportsPerConnection", default: configuration.maxTransportsPerConnection, in: 1...256)
        configuration.requestsPerSecond = try control.int("requestsPerSecond", default: configuration.requestsPerSecond, in: 1...10000)
        configuration.joinsPerSecond = try control.int("joinsPerSecond", default: configuration.joinsPerSecond, in: 1...1000)
        configuration.maxConnections = try control.int("maxConnections", default: configuration.maxConnections, in: 1...1_000_000)
        configuration.maxConnectionsPerAddress = try control.int("maxConnectionsPerAddress", default: configuration.maxConnectionsPerAddress, in: 1...1_000_000)
        try control.finish()

        var admin = try root.section("admin")
        configuration.adminHost = try admin.string("host", default: configuration.adminHost)!
        configuration.adminPort = try listenPort(&admin, default: configuration.adminPort)
        configuration.adminRequestsPerSecond = try admin.int("requestsPerSecond", default: configuration.adminRequestsPerSecond, in: 1...10000)
        configuration.adminMaxBodyBytes = try admin.int("maxBodyBytes", default: configuration.adminMaxBodyBytes, in: 1024...(1 << 20))
        try admin.finish()

        var media = try root.section("media")
        configuration.media.bindAddress = try media.string("bindAddress", default: configuration.media.bindAddress)!
        guard PeerEndpoint(host: configuration.media.bindAddress, port: 1) != nil else {
            throw ConfigurationError(key: "media.bindAddress", reason: "must be an IPv4 address, got '\(configuration.media.bindAddress)'")
        }
        configuration.media.announcedAddress = try media.string("announcedAddress", default: nil)
        if let announced = configuration.media.announcedAddress, PeerEndpoint(host: announced, port: 1) == nil {
            throw ConfigurationError(key: "media.announcedAddress", reason: "must be an IPv4 address, got '\(announced)'")
        }
        configuration.media.bindAddress6 = try media.string("bindAddress6", default: configuration.media.bindAddress6)
        if let bind6 = configuration.media.bindAddress6, IPv6Address(bind6) == nil {
            throw ConfigurationError(key: "media.bindAddress6", reason: "must be an IPv6 address such as '::1' or '::' (no brackets), got '\(bind6)'")
        }
        configuration.media.announcedAddress6 = try media.string("announcedAddress6", default: configuration.media.announcedAddress6)
        if let announced6 = configuration.media.announcedAddress6 {
            guard configuration.media.bindAddress6 != nil else {
                throw ConfigurationError(
                    key: "media.announcedAddress6", reason: "needs media.bindAddress6: the WebRTC ports listen on IPv6 only where that is set")
            }
            guard let parsed = IPv6Address(announced6), !parsed.isUnspecified else {
                throw ConfigurationError(key: "media.announcedAddress6", reason: "must be an IPv6 address clients can reach, got '\(announced6)'")
            }
        } else if let bind6 = configuration.media.bindAddress6, IPv6Address(bind6)?.isUnspecified == true {
            throw ConfigurationError(
                key: "media.announcedAddress6", reason: "must be set when media.bindAddress6 is '::' (clients need an address to reach, not every interface)")
        }
        let first = try media.int("portRangeStart", default: configuration.media.portRange.lowerBound, in: 1024...65535)
        let last = try media.int("portRangeEnd", default: configuration.media.portRange.upperBound, in: 1024...65535)
        guard first <= last else { throw ConfigurationError(key: "media.portRangeEnd", reason: "must not be below media.portRangeStart (\(first))") }
        configuration.media.portRange = first...last
        configuration.allowPlainRTP = try media.bool("allowPlainRTP", default: configuration.allowPlainRTP)
        configuration.congestionFeedback = try media.bool("congestionFeedback", default: configuration.congestionFeedback)
        configuration.layerAllocation = try media.bool("layerAllocation", default: configuration.layerAllocation)
        if let names = try media.list("srtpProfiles") {
            var profiles: [SRTPProfile] = []
            for (index, name) in names.enumerated() {
                guard let text = name as? String, let profile = SRTPProfile(rawValue: text) else {
                    throw ConfigurationError(
                        key: "media.srtpProfiles[\(index)]", reason: "must be one of \(SRTPProfile.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                profiles.append(profile)
            }
            guard !profiles.isEmpty else { throw ConfigurationError(key: "media.srtpProfiles", reason: "must list at least one profile") }
            configuration.srtpProfiles = profiles
        }
        configuration.media.receiveBufferBytes = try media.int("receiveBufferBytes", default: configuration.media.receiveBufferBytes, in: 65536...(256 << 20))
        configuration.media.sendBufferBytes = try media.int("sendBufferBytes", default: configuration.media.sendBufferBytes, in: 65536...(256 << 20))
        configuration.media.receiveBatchSize = try media.int("receiveBatchSize", default: configuration.media.receiveBatchSize, in: 1...256)
        configuration.media.sendBatchSize = try media.int("sendBatchSize", default: configuration.media.sendBatchSize, in: 1...256)
        configuration.media.segmentationOffload = try media.offload("gso", default: configuration.media.segmentationOffload)
        configuration.media.segmentPaddingBytes = try media.int("gsoPadding", default: configuration.media.segmentPaddingBytes, in: 0...255)
        configuration.media.receiveOffload = try media.offload("gro", default: configuration.media.receiveOffload)
        configuration.media.sendOnlySockets = try media.bool("sendOnlySockets", default: configuration.media.sendOnlySockets)
        configuration.media.connectedSockets = try media.bool("connectedSockets", default: configuration.media.connectedSockets)
        let retransmission = try media.int("retransmissionBufferPackets", default: configuration.media.retransmissionBufferPackets, in: 64...8192)
        guard retransmission & (retransmission - 1) == 0 else {
            throw ConfigurationError(key: "media.retransmissionBufferPackets", reason: "must be a power of two, got \(retransmission)")
        }
        configuration.media.retransmissionBufferPackets = retransmission
        configuration.media.keyframeRequestIntervalMs = Int64(
            try media.int("keyframeRequestIntervalMs", default: Int(configuration.media.keyframeRequestIntervalMs), in: 50...10000))
        configuration.media.threads = try media.int("threads", default: configuration.media.threads, in: 1...MediaPlaneConfiguration.maximumThreads)
        configuration.media.spreadRoomAfter = try media.int("spreadRoomAfter", default: configuration.media.spreadRoomAfter, in: 0...1_000_000)
        let webRTCEnabled = try media.bool("webrtcEnabled", default: configuration.media.webRTCPort != nil)
        let webRTCPort = try media.int("webrtcPort", default: configuration.media.webRTCPort ?? 7702, in: 0...65535)
        if webRTCEnabled, webRTCPort != 0 {
            // One WebRTC port per media thread: webrtcPort, webrtcPort + 1, ...
            let threads = configuration.media.threads
            let lastWebRTCPort = webRTCPort + threads - 1
            guard lastWebRTCPort <= 65535 else {
                throw ConfigurationError(
                    key: "media.webrtcPort",
                    reason:
                        "\(webRTCPort) leaves no room for one WebRTC port per media thread: \(threads) threads need \(webRTCPort)-\(lastWebRTCPort), past 65535"
                )
            }
            if webRTCPort <= last, first <= lastWebRTCPort {
                throw ConfigurationError(
                    key: "media.webrtcPort",
                    reason:
                        "the WebRTC ports \(webRTCPort)-\(lastWebRTCPort) (one per media thread, media.threads \(threads)) must lie outside "
                        + "media.portRangeStart-portRangeEnd (\(first)-\(last)), which SRTP transports use"
                )
            }
        }
        configuration.media.webRTCPort = webRTCEnabled ? webRTCPort : nil
        configuration.media.webRTCTCP = try media.bool("webrtcTCP", default: configuration.media.webRTCTCP)
        configuration.media.webRTCTCPConnections = try media.int(
            "webrtcTCPConnections", default: configuration.media.webRTCTCPConnections, in: 1...32_767)
        configuration.media.webRTCTCPConnectionsPerAddress = try media.int(
            "webrtcTCPConnectionsPerAddress", default: configuration.media.webRTCTCPConnectionsPerAddress, in: 1...Int(UInt16.max))
        // ICE-TCP listens on each WebRTC port's number: the control and admin listeners must not.
        if configuration.media.webRTCTCP, let range = configuration.webRTCPortRange {
            for (key, port) in [("control.port", configuration.controlPort), ("admin.port", configuration.adminPort)] where range.contains(port) {
                throw ConfigurationError(
                    key: key,
                    reason:
                        "\(port) is one of the WebRTC ports \(range.lowerBound)-\(range.upperBound), on which ICE-TCP listens (media.webrtcTCP); "
                        + "choose another port, or set media.webrtcTCP: false")
            }
        }
        configuration.media.iceTimeoutMs = Int64(try media.int("iceTimeoutSeconds", default: Int(configuration.media.iceTimeoutMs / 1000), in: 5...300)) * 1000
        try media.finish()

        var rooms = try root.section("rooms")
        configuration.rooms.maximumVisibleUsersPerRoom = try rooms.int(
            "maxVisibleUsers", default: configuration.rooms.maximumVisibleUsersPerRoom, in: 1...100_000)
        configuration.rooms.maximumPublishersPerRoom = try rooms.int("maxPublishers", default: configuration.rooms.maximumPublishersPerRoom, in: 1...10_000)
        configuration.rooms.maximumSubscriptionsPerUser = try rooms.int(
            "maxSubscriptionsPerUser", default: configuration.rooms.maximumSubscriptionsPerUser, in: 1...10_000)
        configuration.rooms.keepAliveTimeoutMilliseconds =
            Int64(try rooms.int("keepAliveTimeoutSeconds", default: Int(configuration.rooms.keepAliveTimeoutMilliseconds / 1000), in: 1...3600)) * 1000
        configuration.rooms.tokenExpiryWarningMilliseconds =
            Int64(try rooms.int("tokenExpiryWarningSeconds", default: Int(configuration.rooms.tokenExpiryWarningMilliseconds / 1000), in: 1...3600)) * 1000
        configuration.rooms.maximumForwardTargetsPerUser = try rooms.int(
            "maxForwardTargetsPerUser", default: configuration.rooms.maximumForwardTargetsPerUser, in: 1...64)
        configuration.rooms.maximumLinksPerUser = try rooms.int("maxLinksPerUser", default: configuration.rooms.maximumLinksPerUser, in: 1...64)
        configuration.rooms.maximumLinksPerRoom = try rooms.int("maxLinksPerRoom", default: configuration.rooms.maximumLinksPerRoom, in: 1...256)
        configuration.rooms.autoRejectBusyInvitations = try rooms.bool("autoRejectBusyInvitations", default: configuration.rooms.autoRejectBusyInvitations)
        configuration.rooms.invitationDefaultTimeoutSeconds = try rooms.int(
            "invitationTimeoutSeconds", default: configuration.rooms.invitationDefaultTimeoutSeconds, in: 1...3600)
        configuration.rooms.maximumMessageBytes = try rooms.int("maxMessageBytes", default: configuration.rooms.maximumMessageBytes, in: 1...65536)
        configuration.rooms.maximumMessagesPerSecond = try rooms.int(
            "maxMessagesPerSecond", default: configuration.rooms.maximumMessagesPerSecond, in: 1...1000)
        try rooms.finish()

        var auth = try root.section("auth")
        configuration.tokenLeewaySeconds = Int64(try auth.int("leewaySeconds", default: Int(configuration.tokenLeewaySeconds), in: 0...300))
        if let keys = try auth.list("keys") {
            var seen = Set<String>()
            for (index, item) in keys.enumerated() {
                var key = try ConfigurationReader(item, path: "auth.keys[\(index)]")
                guard let id = try key.string("id", default: nil), !id.isEmpty else {
                    throw ConfigurationError(key: "auth.keys[\(index)].id", reason: "is required")
                }
                guard let secret = try key.string("secret", default: nil) else {
                    throw ConfigurationError(key: "auth.keys[\(index)].secret", reason: "is required")
                }
                guard secret.utf8.count >= SigningKey.minimumSecretLength else {
                    throw ConfigurationError(key: "auth.keys[\(index)].secret", reason: "must be at least \(SigningKey.minimumSecretLength) bytes")
                }
                guard seen.insert(id).inserted else { throw ConfigurationError(key: "auth.keys[\(index)].id", reason: "'\(id)' is used twice") }
                try key.finish()
                configuration.keys.append(SigningKey(id: id, secret: Array(secret.utf8)))
            }
        }
        try auth.finish()

        var logging = try root.section("logging")
        let level = try logging.choice("level", default: configuration.logLevel.rawValue, from: Logger.Level.allCases.map(\.rawValue))
        configuration.logLevel = Logger.Level(rawValue: level)!
        configuration.logFormat = try logging.choice("format", default: configuration.logFormat, from: ["text", "json"])
        try logging.finish()

        var shutdown = try root.section("shutdown")
        configuration.shutdownGraceSeconds = try shutdown.int("graceSeconds", default: configuration.shutdownGraceSeconds, in: 0...600)
        try shutdown.finish()

        var webhooks = try root.section("webhooks")
        configuration.webhooks = try readWebhooks(&webhooks, defaults: configuration.webhooks)
        try webhooks.finish()

        var ice = try root.section("ice")
        configuration.iceServers = try readICEServers(&ice)
        configuration.iceCredentialSeconds = try ice.int("credentialSeconds", default: configuration.iceCredentialSeconds, in: 60...604_800)
        try ice.finish()

        var cluster = try root.section("cluster")
        configuration.cluster = try readCluster(&cluster, defaults: configuration.cluster)
        try cluster.finish()

        try root.finish()
        return configuration
    }

    /// Reads a configuration file.
    public static func load(path: String, environment: [String: String] = [:]) throws(ConfigurationError) -> RelayConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(key: "", reason: "cannot read '\(path)'")
        }
        return try load(yaml: text, environment: environment)
    }

    /// A listener's `port`: 1-65535, or 0 for a free port chosen at start (and logged).
    static func listenPort(_ section: inout ConfigurationReader, default fallback: Int) throws(ConfigurationError) -> Int {
        let port = try section.int("port", default: fallback, in: Int.min...Int.max)
        guard (0...65535).contains(port) else {
            throw ConfigurationError(key: "\(section.path).port", reason: "must be between 1 and 65535 (or 0 for a free port), got \(port)")
        }
        return port
    }

    static func readCluster(_ section: inout ConfigurationReader, defaults: ClusterConfiguration) throws(ConfigurationError) -> ClusterConfiguration {
        var cluster = defaults
        cluster.nodeId = try section.string("nodeId", default: cluster.nodeId) ?? ""
        cluster.databaseURL = try section.string("databaseURL", default: cluster.databaseURL) ?? ""
        cluster.publicControlURL = try section.string("publicControlURL", default: cluster.publicControlURL) ?? ""
        cluster.capacity = try section.int("capacity", default: cluster.capacity, in: 1...10_000_000)
        cluster.leaseSeconds = try section.int("leaseSeconds", default: cluster.leaseSeconds, in: 3...300)
        cluster.renewSeconds = try section.int("renewSeconds", default: cluster.renewSeconds, in: 1...100)
        cluster.edges = try section.bool("edges", default: cluster.edges)
        cluster.edgeAfterAudience = try section.int("edgeAfterAudience", default: cluster.edgeAfterAudience, in: 0...1_000_000)
        guard cluster.isEnabled else {
            if !cluster.databaseURL.isEmpty || !cluster.publicControlURL.isEmpty || cluster.edges || cluster.edgeAfterAudience > 0 {
                throw ConfigurationError(key: "cluster.nodeId", reason: "is required when other cluster settings are given")
            }
            return cluster
        }
        if let problem = RelayIdentifier.problem(with: cluster.nodeId) { throw ConfigurationError(key: "cluster.nodeId", reason: problem) }
        guard !cluster.databaseURL.isEmpty else { throw ConfigurationError(key: "cluster.databaseURL", reason: "is required in a cluster") }
        do {
            _ = try DatabaseAddress(url: cluster.databaseURL)
        } catch {
            throw ConfigurationError(key: "cluster.databaseURL", reason: error.reason)
        }
        if !cluster.publicControlURL.isEmpty, !(cluster.publicControlURL.hasPrefix("ws://") || cluster.publicControlURL.hasPrefix("wss://")) {
            throw ConfigurationError(key: "cluster.publicControlURL", reason: "must be a ws:// or wss:// URL")
        }
        if cluster.edgeAfterAudience > 0, !cluster.edges {
            throw ConfigurationError(
                key: "cluster.edgeAfterAudience", reason: "sends audience to other nodes as edges: set cluster.edges: true as well (on every node)")
        }
        guard cluster.renewSeconds * 3 <= cluster.leaseSeconds else {
            throw ConfigurationError(
                key: "cluster.renewSeconds",
                reason: "must be at most a third of cluster.leaseSeconds (\(cluster.leaseSeconds)), so that a late renewal or two do not lose the lease")
        }
        return cluster
    }

    /// `ice.servers`: each a STUN or TURN server with its URLs and, for TURN, either a secret
    /// (coturn's `use-auth-secret`) or fixed credentials.
    static func readICEServers(_ section: inout ConfigurationReader) throws(ConfigurationError) -> [ICEServerConfiguration] {
        guard let items = try section.list("servers") else { return [] }
        var servers: [ICEServerConfiguration] = []
        for (index, item) in items.enumerated() {
            let path = "ice.servers[\(index)]"
            var entry = try ConfigurationReader(item, path: path)
            guard let urls = try entry.list("urls"), !urls.isEmpty else {
                throw ConfigurationError(key: "\(path).urls", reason: "is required: one or more stun:, stuns:, turn: or turns: URLs")
            }
            var server = ICEServerConfiguration(urls: [])
            for (number, url) in urls.enumerated() {
                let schemes = ["stun:", "stuns:", "turn:", "turns:"]
                guard let text = url as? String, schemes.contains(where: { text.hasPrefix($0) && text.count > $0.count }), !text.contains(where: \.isWhitespace)
                else {
                    throw ConfigurationError(key: "\(path).urls[\(number)]", reason: "must be a stun:, stuns:, turn: or turns: URL (RFC 7064, RFC 7065)")
                }
                server.urls.append(text)
            }
            server.username = try entry.string("username", default: nil)
            server.credential = try entry.string("credential", default: nil)
            server.secret = try entry.string("secret", default: nil)
            try entry.finish()
            if server.username != nil || server.credential != nil {
                guard server.secret == nil else {
                    throw ConfigurationError(key: "\(path).secret", reason: "is for minted credentials; give either secret or username and credential")
                }
                guard server.username?.isEmpty == false else { throw ConfigurationError(key: "\(path).username", reason: "is required with credential") }
                guard server.credential?.isEmpty == false else { throw ConfigurationError(key: "\(path).credential", reason: "is required with username") }
            }
            if let secret = server.secret {
                guard server.isTURN else { throw ConfigurationError(key: "\(path).secret", reason: "is for TURN servers; STUN takes no credentials") }
                guard !secret.isEmpty else { throw ConfigurationError(key: "\(path).secret", reason: "must not be empty") }
            }
            if server.isTURN && server.secret == nil && server.username == nil {
                throw ConfigurationError(key: path, reason: "a TURN server needs a secret (coturn's static-auth-secret) or a username and credential")
            }
            servers.append(server)
        }
        return servers
    }

    static func readWebhooks(_ section: inout ConfigurationReader, defaults: WebhookConfiguration) throws(ConfigurationError) -> WebhookConfiguration {
        var webhooks = defaults
        if let urls = try section.list("urls") {
            webhooks.urls = []
            for (index, item) in urls.enumerated() {
                guard let text = item as? String, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
                else {
                    throw ConfigurationError(key: "webhooks.urls[\(index)]", reason: "must be an http or https URL")
                }
                webhooks.urls.append(text)
            }
        }
        webhooks.secret = try section.string("secret", default: webhooks.secret) ?? ""
        if webhooks.isEnabled && webhooks.secret.utf8.count < 16 {
            throw ConfigurationError(key: "webhooks.secret", reason: "must be at least 16 bytes when webhooks.urls are set")
        }
        webhooks.requestTimeoutMs = try section.int("requestTimeoutMs", default: webhooks.requestTimeoutMs, in: 10...60000)
        webhooks.retryForSeconds = try section.int("retryForSeconds", default: webhooks.retryForSeconds, in: 0...3600)
        webhooks.initialBackoffMs = try section.int("initialBackoffMs", default: webhooks.initialBackoffMs, in: 1...60000)
        webhooks.maxBackoffMs = try section.int("maxBackoffMs", default: webhooks.maxBackoffMs, in: 1...600_000)
        guard webhooks.maxBackoffMs >= webhooks.initialBackoffMs else {
            throw ConfigurationError(key: "webhooks.maxBackoffMs", reason: "must not be below webhooks.initialBackoffMs (\(webhooks.initialBackoffMs))")
        }
        webhooks.queueSize = try section.int("queueSize", default: webhooks.queueSize, in: 1...1_000_000)
        webhooks.concurrency = try section.int("concurrency", default: webhooks.concurrency, in: 1...256)
        return webhooks
    }
}
