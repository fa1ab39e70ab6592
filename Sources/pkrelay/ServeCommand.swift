import ArgumentParser
import Foundation
import Logging
import MediaPlane
import PKRelayServer
import ServiceLifecycle

/// `pkrelay serve [--config FILE]`: runs the relay until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the relay (the default command).")

    @Option(name: .long, help: "A YAML configuration file; without one the built-in defaults apply.")
    var config: String?

    func run() async throws {
        let configuration = try loadConfiguration(config)
        bootstrapLogging(configuration)
        var logger = Logger(label: "pkrelay")
        logger.logLevel = configuration.logLevel
        if configuration.usesDevelopmentKey {
            let banner = """
                ************************************************************************
                * PKRelay is using the built-in DEVELOPMENT signing key.               *
                * Anyone can mint tokens for it. Configure auth.keys before deploying. *
                ************************************************************************

                """
            FileHandle.standardError.write(Data(banner.utf8))
            logger.warning("using the development signing key", metadata: ["kid": "dev"])
        }
        if let files = RelayConfiguration.raiseOpenFileLimit(), files < configuration.fileDescriptorsNeeded {
            logger.warning(
                "the open-file limit is below what the configured limits need; raise the hard limit (ulimit -Hn, systemd LimitNOFILE=)",
                metadata: [
                    "openFileLimit": "\(files)", "needed": "\(configuration.fileDescriptorsNeeded)",
                    "control.maxConnections": "\(configuration.maxConnections)", "mediaPorts": "\(configuration.media.portRange.count)",
                ])
        }
        let server = try RelayServer(configuration: configuration, logger: logger)
        let group = server.makeServiceGroup(handleSignals: true)
        logger.notice(
            "PKRelay starting",
            metadata: [
                "version": "\(RelayVersion.current)",
                "media": "\(configuration.media.bindAddress) ports \(configuration.media.portRange.lowerBound)-\(configuration.media.portRange.upperBound)",
                "webrtcIPv6": "\(configuration.media.bindAddress6 ?? "off")",
            ])
        try await group.run()
        logger.notice("PKRelay stopped")
    }
}

/// Reads the configuration file (or the defaults) with `PKRELAY_*` environment overrides; exits
/// with the key and reason on a bad file or variable.
func loadConfiguration(_ path: String?) throws -> RelayConfiguration {
    let environment = ProcessInfo.processInfo.environment
    do {
        guard let path else { return try RelayConfiguration.load(yaml: "", environment: environment) }
        return try RelayConfiguration.load(path: path, environment: environment)
    } catch {
        throw ConfigurationFailure(description: "configuration \(path ?? "(defaults)"): \(error)")
    }
}

func bootstrapLogging(_ configuration: RelayConfiguration) {
    let level = configuration.logLevel
    if configuration.logFormat == "json" {
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    } else {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
