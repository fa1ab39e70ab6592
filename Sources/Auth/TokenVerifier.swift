public import Foundation
public import Protocol
public import SecureTransport

/// Verifies tokens: HS256 only, a known key id, a valid signature, and the time window.
public struct TokenVerifier: Sendable {
    public var keys: [String: SigningKey]
    /// Allowed clock difference with the room server, in seconds.
    public var leewaySeconds: Int64
    /// Tokens longer than this are refused before any work.
    public static let maximumTokenLength = 4096
    /// The Unix seconds a time claim (exp, nbf, iat, grants.publishExpiresAt) may hold: from 1970
    /// to the last second of the year 9999. Anything else is refused as an invalid token.
    public static let acceptedTimes: ClosedRange<Int64> = 0...253_402_300_799

    public init(keys: [SigningKey], leewaySeconds: Int64 = 5) {
        self.keys = Dictionary(keys.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.leewaySeconds = leewaySeconds
    }

    /// Checks a token and returns its claims, or a RelayError with -1000 (invalid) or -1009
    /// (expired or not yet valid) and a message saying which check failed.
    public func verify(_ token: String, nowSeconds: Int64) -> Result<TokenClaims, RelayError> {
        guard token.utf8.count <= Self.maximumTokenLength else {
            return .failure(RelayError(.invalidToken, "token is longer than \(Self.maximumTokenLength) bytes"))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(RelayError(.invalidToken, "token is not a JWT (expected three dot-separated parts)")) }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(TokenHeader.self, from: Data(headerBytes)) else {
            return .failure(RelayError(.invalidToken, "token header is not base64url JSON"))
        }
        guard header.alg == "HS256" else { return .failure(RelayError(.invalidToken, "token algorithm '\(header.alg)' is not accepted; use HS256")) }
        let keyId = header.kid ?? ""
        guard let key = keys[keyId] else { return .failure(RelayError(.invalidToken, "token key id '\(keyId)' is not configured")) }
        guard let signature = Base64URL.decode(parts[2]) else { return .failure(RelayError(.invalidToken, "token signature is not base64url")) }
        let expected = HMACSHA256.authenticationCode(key: key.secret, message: Array((parts[0] + "." + parts[1]).utf8))
        guard HMACSHA256.constantTimeEquals(expected, signature) else { return .failure(RelayError(.invalidToken, "token signature does not match")) }
        guard let bodyBytes = Base64URL.decode(parts[1]) else { return .failure(RelayError(.invalidToken, "token claims are not base64url")) }
        let claims: TokenClaims
        do {
            claims = try JSONDecoder().decode(TokenClaims.self, from: Data(bodyBytes))
        } catch {
            return .failure(RelayError(.invalidToken, "token claims are malformed (need sub, exp; room for room tokens)"))
        }
        if claims.sub.isEmpty { return .failure(RelayError(.invalidToken, "token has an empty user id (sub)")) }
        for (name, value) in [("exp", claims.exp), ("nbf", claims.nbf), ("iat", claims.iat), ("grants.publishExpiresAt", claims.grants?.publishExpiresAt)] {
            if let value, !Self.acceptedTimes.contains(value) {
                return .failure(
                    RelayError(
                        .invalidToken,
                        "token claim \(name) is \(value); times are Unix seconds in \(Self.acceptedTimes.lowerBound)...\(Self.acceptedTimes.upperBound)"))
            }
        }
        if nowSeconds.saturatingSubtracting(leewaySeconds) > claims.exp { return .failure(RelayError(.tokenExpired, "token expired at \(claims.exp)")) }
        if let nbf = claims.nbf, nowSeconds.saturatingAdding(leewaySeconds) < nbf {
            return .failure(RelayError(.tokenExpired, "token is not valid before \(nbf)"))
        }
        return .success(claims)
    }

    /// Verifies a token and checks it names this room and user.
    public func verify(_ token: String, roomId: String, userId: String, nowSeconds: Int64) -> Result<TokenClaims, RelayError> {
        verify(token, nowSeconds: nowSeconds).flatMap { claims in
            if claims.room != roomId { return .failure(RelayError(.invalidToken, "token is for room '\(claims.room ?? "")', not '\(roomId)'")) }
            if claims.sub != userId { return .failure(RelayError(.invalidToken, "token is for user '\(claims.sub)', not '\(userId)'")) }
            return .success(claims)
        }
    }
}
