import Foundation
import SecureTransport

/// Mints tokens: what a room server does (see docs/PROTOCOL.md for the format), and what
/// `pkrelay token` does for tests and first steps.
public struct TokenMinter: Sendable {
    public var key: SigningKey

    public init(key: SigningKey) { self.key = key }

    /// Signs `claims` with HS256 under this key.
    public func mint(_ claims: TokenClaims) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = try! encoder.encode(TokenHeader(alg: "HS256", typ: "JWT", kid: key.id))
        let body = try! encoder.encode(claims)
        let signingInput = Base64URL.encode(Array(header)) + "." + Base64URL.encode(Array(body))
        let signature = HMACSHA256.authenticationCode(key: key.secret, message: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
