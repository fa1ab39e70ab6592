import Foundation
import Yams

/// The token-signing key the tool uses: read from the relay's own configuration file
/// (`auth.keys[0]`: `id` and `secret`), so tokens are minted exactly as the relay verifies them.
public struct SigningKeyConfig: Sendable, Hashable {
    public var id: String
    public var secret: String

    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// The relay's development key, which it uses when its configuration has no `auth.keys`.
    public static let development = SigningKeyConfig(id: "dev", secret: "pkrelay-development-key-not-secret-do-not-deploy")

    /// The first key of `auth.keys` in a relay configuration's YAML text, or the development
    /// key when the file configures none (as the relay does).
    public static func parse(relayConfiguration text: String) throws(ScenarioError) -> SigningKeyConfig {
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: text)
        } catch {
            throw ScenarioError("the relay configuration is not valid YAML: \(error)")
        }
        guard let root = loaded as? [String: Any] else { return .development }
        guard let auth = root["auth"] as? [String: Any], let keys = auth["keys"] as? [Any], let first = keys.first else { return .development }
        guard let key = first as? [String: Any], let id = key["id"] as? String, let secret = key["secret"] as? String, !id.isEmpty else {
            throw ScenarioError("auth.keys[0] needs an id and a secret")
        }
        return SigningKeyConfig(id: id, secret: secret)
    }

    /// Reads the key from a relay configuration file.
    public static func load(relayConfigurationPath path: String) throws(ScenarioError) -> SigningKeyConfig {
        do {
            return try parse(relayConfiguration: String(contentsOfFile: path, encoding: .utf8))
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
