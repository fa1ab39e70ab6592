import ArgumentParser
import TrafficCore

/// The key tokens are signed with: `--key-id`/`--key-secret`, else the relay's configuration
/// file, else the development key.
struct KeyOptions: ParsableArguments {
    @Option(help: "The relay's configuration file: tokens are signed with its auth.keys[0] (the development key when it has none).")
    var config: String?

    @Option(help: "Sign tokens with this key id (with --key-secret) instead of --config.")
    var keyId: String?

    @Option(help: "The secret for --key-id.")
    var keySecret: String?

    /// The key chosen by these options.
    func signingKey() throws -> SigningKeyConfig {
        if let keyId, let keySecret { return SigningKeyConfig(id: keyId, secret: keySecret) }
        if keyId != nil || keySecret != nil { throw ValidationError("--key-id and --key-secret go together") }
        if let config {
            do { return try SigningKeyConfig.load(relayConfigurationPath: config) } catch { throw ToolFailure(.setupFailed, error.message) }
        }
        return .development
    }
}
