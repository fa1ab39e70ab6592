import Auth
import Foundation
import Logging
import MediaPlane
import SecureTransport
import Yams

extension RelayConfiguration {
    /// Reads a YAML configuration over the built-in defaults. Unknown keys and bad values are
    /// refused with the key's dotted path and the reason.
    public static func load(yaml: String) throws(ConfigurationError) -> RelayConfiguration {
        let document: Any?
        do {
            document = try Yams.load(yaml: yaml)
        } catch {
            throw ConfigurationError(key: "", reason: "not valid YAML: \(error)")
        }
        var root = try ConfigurationReader(document, path: "")
        var configuration = RelayConfiguration()

        var control = try root.section("control")
        configuration.controlHost = try control.string("host", default: configuration.controlHost)!
        configuration.controlPort = try control.int("port", default: configuration.controlPort, in: 1...65535)
        configuration.maxMessageBytes = try control.int("maxMessageBytes", default: configuration.maxMessageBytes, in: 1024...(1 << 20))
        configuration.maxTransportsPerConnection = try control.int("maxTransportsPerConnection", default: configuration.maxTransportsPerConnection, in: 1...256)
        configuration.requestsPerSecond = try control.int("requestsPerSecond", default: configuration.requestsPerSecond, in: 1...10000)
        try control.finish()

        var admin = try root.section("admin")
        configuration.adminHost = try admin.string("host", default: configuration.adminHost)!
        configuration.adminPort = try admin.int("port", default: configuration.adminPort, in: 1...65535)
        try admin.finish()

        var media = try root.section("media")
        configuration.media.bindAddress = try media.string("bindAddress", default: configuration.media.bindAddress)!
        guard IPv4Endpoint(host: configuration.media.bindAddress, port: 1) != nil else {
            throw ConfigurationError(key: "media.bindAddress", reason: "must be an IPv4 address, got '\(configuration.media.bindAddress)'")
        }
        configuration.media.announcedAddress = try media.string("announcedAddress", default: nil)
        if let announced = configuration.media.announcedAddress, IPv4Endpoint(host: announced, port: 1) == nil {
            throw ConfigurationError(key: "media.announcedAddress", reason: "must be an IPv4 address, got '\(announced)'")
        }
        let first = try media.int("portRangeStart", default: configuration.media.portRange.lowerBound, in: 1024...65535)
        let last = try media.int("portRangeEnd", default: configuration.media.portRange.upperBound, in: 1024...65535)
        guard first <= last else { throw ConfigurationError(key: "media.portRangeEnd", reason: "must not be below media.portRangeStart (\(first))") }
        configuration.media.portRange = first...last
        configuration.allowPlainRTP = try media.bool("allowPlainRTP", default: configuration.allowPlainRTP)
        if let names = try media.list("srtpProfiles") {
            var profiles: [SRTPProfile] = []
            for (index, name) in names.enumerated() {
                guard let text = name as? String, let profile = SRTPProfile(rawValue: text) else {
                    throw ConfigurationError(key: "media.srtpProfiles[\(index)]", reason: "must be one of \(SRTPProfile.allCases.map(\.rawValue).joined(separator: ", "))")
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
        let retransmission = try media.int("retransmissionBufferPackets", default: configuration.media.retransmissionBufferPackets, in: 64...8192)
        guard retransmission & (retransmission - 1) == 0 else { throw ConfigurationError(key: "media.retransmissionBufferPackets", reason: "must be a power of two, got \(retransmission)") }
        configuration.media.retransmissionBufferPackets = retransmission
        configuration.media.keyframeRequestIntervalMs = Int64(try media.int("keyframeRequestIntervalMs", default: Int(configuration.media.keyframeRequestIntervalMs), in: 50...10000))
        try media.finish()

        var rooms = try root.section("rooms")
        configuration.rooms.maximumVisibleUsersPerRoom = try rooms.int("maxVisibleUsers", default: configuration.rooms.maximumVisibleUsersPerRoom, in: 1...100_000)
        configuration.rooms.maximumPublishersPerRoom = try rooms.int("maxPublishers", default: configuration.rooms.maximumPublishersPerRoom, in: 1...10_000)
        configuration.rooms.maximumSubscriptionsPerUser = try rooms.int("maxSubscriptionsPerUser", default: configuration.rooms.maximumSubscriptionsPerUser, in: 1...10_000)
        configuration.rooms.keepAliveTimeoutMilliseconds = Int64(try rooms.int("keepAliveTimeoutSeconds", default: Int(configuration.rooms.keepAliveTimeoutMilliseconds / 1000), in: 1...3600)) * 1000
        configuration.rooms.tokenExpiryWarningMilliseconds = Int64(try rooms.int("tokenExpiryWarningSeconds", default: Int(configuration.rooms.tokenExpiryWarningMilliseconds / 1000), in: 1...3600)) * 1000
        try rooms.finish()

        var auth = try root.section("auth")
        configuration.tokenLeewaySeconds = Int64(try auth.int("leewaySeconds", default: Int(configuration.tokenLeewaySeconds), in: 0...300))
        if let keys = try auth.list("keys") {
            var seen = Set<String>()
            for (index, item) in keys.enumerated() {
                var key = try ConfigurationReader(item, path: "auth.keys[\(index)]")
                guard let id = try key.string("id", default: nil), !id.isEmpty else { throw ConfigurationError(key: "auth.keys[\(index)].id", reason: "is required") }
                guard let secret = try key.string("secret", default: nil) else { throw ConfigurationError(key: "auth.keys[\(index)].secret", reason: "is required") }
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

        try root.finish()
        return configuration
    }

    /// Reads a configuration file.
    public static func load(path: String) throws(ConfigurationError) -> RelayConfiguration {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(key: "", reason: "cannot read '\(path)'")
        }
        return try load(yaml: text)
    }
}
