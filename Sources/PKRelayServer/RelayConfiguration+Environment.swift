import Foundation

/// Environment overrides: `PKRELAY_<SECTION>_<KEY>` sets `section.key`, the key's camel case
/// written as upper snake case (`control.maxMessageBytes` is `PKRELAY_CONTROL_MAX_MESSAGE_BYTES`).
/// The value is read as YAML, so numbers, booleans and flow lists
/// (`PKRELAY_WEBHOOKS_URLS='[http://10.0.0.5:8080/pkrelay]'`,
/// `PKRELAY_AUTH_KEYS='[{id: main, secret: "..."}]'`) work. An override wins over the file; an
/// unknown `PKRELAY_` variable is refused like an unknown key.
extension RelayConfiguration {
    /// Every key an environment variable can set, as dotted paths.
    public static let overridableKeys: [String] = [
        "control.host", "control.port", "control.maxMessageBytes", "control.maxTransportsPerConnection", "control.requestsPerSecond",
        "control.joinsPerSecond", "control.maxConnections", "control.maxConnectionsPerAddress",
        "admin.host", "admin.port", "admin.requestsPerSecond", "admin.maxBodyBytes",
        "media.bindAddress", "media.announcedAddress", "media.bindAddress6", "media.announcedAddress6", "media.portRangeStart", "media.portRangeEnd",
        "media.allowPlainRTP", "media.congestionFeedback",
        "media.layerAllocation",
        "media.srtpProfiles", "media.receiveBufferBytes", "media.sendBufferBytes", "media.receiveBatchSize", "media.sendBatchSize",
        "media.gso", "media.gsoPadding", "media.gro", "media.sendOnlySockets", "media.connectedSockets",
        "media.retransmissionBufferPackets", "media.keyframeRequestIntervalMs", "media.webrtcEnabled", "media.webrtcPort", "media.webrtcTCP",
        "media.webrtcTCPConnections", "media.webrtcTCPConnectionsPerAddress", "media.iceTimeoutSeconds",
        "media.threads", "media.spreadRoomAfter",
        "rooms.maxVisibleUsers", "rooms.maxPublishers", "rooms.maxSubscriptionsPerUser", "rooms.keepAliveTimeoutSeconds",
        "rooms.tokenExpiryWarningSeconds", "rooms.maxForwardTargetsPerUser", "rooms.maxLinksPerUser", "rooms.maxLinksPerRoom",
        "rooms.autoRejectBusyInvitations", "rooms.invitationTimeoutSeconds", "rooms.maxMessageBytes", "rooms.maxMessagesPerSecond",
        "auth.keys", "auth.leewaySeconds",
        "logging.level", "logging.format",
        "shutdown.graceSeconds",
        "webhooks.urls", "webhooks.secret", "webhooks.requestTimeoutMs", "webhooks.retryForSeconds", "webhooks.initialBackoffMs",
        "webhooks.maxBackoffMs", "webhooks.queueSize", "webhooks.concurrency",
        "ice.servers", "ice.credentialSeconds",
        "cluster.nodeId", "cluster.databaseURL", "cluster.publicControlURL", "cluster.capacity", "cluster.leaseSeconds", "cluster.renewSeconds",
        "cluster.edges", "cluster.edgeAfterAudience",
    ]

    /// The variable that overrides a dotted key, e.g. `PKRELAY_MEDIA_PORT_RANGE_START` for
    /// `media.portRangeStart`.
    public static func environmentVariable(for key: String) -> String {
        var name = "PKRELAY_"
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            if character == "." {
                name += "_"
                continue
            }
            let previous: Character = index > 0 ? characters[index - 1] : "."
            let next: Character = index + 1 < characters.count ? characters[index + 1] : "."
            // A word starts at an upper-case letter after a lower-case one (allowPlainRTP is
            // ALLOW_PLAIN_RTP), and at the last capital of an acronym that a word follows
            // (webrtcTCPConnections is WEBRTC_TCP_CONNECTIONS).
            if character.isUppercase && (previous.isLowercase || previous.isNumber || (previous.isUppercase && next.isLowercase)) { name += "_" }
            name += character.uppercased()
        }
        return name
    }

    /// The `PKRELAY_*` variables in `environment` that set keys, as (variable, dotted key), sorted.
    public static func environmentOverrides(in environment: [String: String]) -> [(variable: String, key: String)] {
        let known = Dictionary(uniqueKeysWithValues: overridableKeys.map { (environmentVariable(for: $0), $0) })
        return environment.keys.sorted().compactMap { variable in known[variable].map { (variable, $0) } }
    }

    /// Puts each override into the parsed document, before it is checked like the file itself.
    static func applyEnvironment(_ environment: [String: String], to document: Any?) throws(ConfigurationError) -> Any? {
        let known = Dictionary(uniqueKeysWithValues: overridableKeys.map { (environmentVariable(for: $0), $0) })
        let variables = environment.keys.filter { $0.hasPrefix("PKRELAY_") }.sorted()
        guard !variables.isEmpty else { return document }
        var root = try mapping(document, path: "")
        for variable in variables {
            guard let key = known[variable] else {
                throw ConfigurationError(key: variable, reason: "unknown environment variable; see the PKRELAY_* mapping in the operations guide")
            }
            let parts = key.split(separator: ".").map(String.init)
            let value = try yamlDocument(environment[variable]!, key: variable, what: "a valid YAML value")
            var section = try mapping(root[parts[0]], path: parts[0])
            section[parts[1]] = value ?? NSNull()
            root[parts[0]] = section
        }
        return root
    }

    private static func mapping(_ value: Any?, path: String) throws(ConfigurationError) -> [String: Any] {
        switch value {
        case nil, is NSNull:
            return [:]
        case let mapping as [String: Any]:
            return mapping
        case let mapping as [AnyHashable: Any]:
            var converted: [String: Any] = [:]
            for (key, item) in mapping {
                guard let key = key as? String else { throw ConfigurationError(key: path, reason: "keys must be strings") }
                converted[key] = item
            }
            return converted
        default:
            throw ConfigurationError(key: path, reason: "must be a mapping of keys to values")
        }
    }
}
