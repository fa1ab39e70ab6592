import Auth
import Foundation
import RoomEngine
import SecureTransport

extension FuzzTarget {
    /// The fixed clock tokens are checked against: 2023-11-14T22:13:20Z.
    static let tokenNowSeconds: Int64 = 1_700_000_000

    static let tokenVerifier = TokenVerifier(keys: [SigningKey.development], leewaySeconds: 5)

    /// The first byte picks the mode. Even: the rest is token text as a client sends it. Odd: the
    /// rest is the claims JSON of a token signed correctly with the development key, so the
    /// claim checks after the signature are reached.
    ///
    /// An accepted token must have a user, times within the accepted range and an expiry not
    /// before the clock (minus leeway); its grants must convert as the relay converts them.
    static func runToken(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let rest = input.rest()
        let token: String
        if mode & 1 == 0 {
            token = String(decoding: rest, as: UTF8.self)
        } else {
            let header = mode & 2 == 0 ? #"{"alg":"HS256","kid":"dev","typ":"JWT"}"# : #"{"alg":"HS256","typ":"JWT"}"#
            let signingInput = FuzzBase64URL.encode(Array(header.utf8)) + "." + FuzzBase64URL.encode(Array(rest))
            let signature = HMACSHA256.authenticationCode(key: SigningKey.development.secret, message: Array(signingInput.utf8))
            token = signingInput + "." + FuzzBase64URL.encode(signature)
        }
        let verified = tokenVerifier.verify(token, nowSeconds: tokenNowSeconds)
        if mode & 1 == 1 && mode & 2 != 0 {
            // Without a key id the development key (id "dev") is not found.
            guard case .failure = verified else { preconditionFailure("a token without a configured key id was accepted") }
        }
        guard case .success(let claims) = verified else { return }
        precondition(!claims.sub.isEmpty, "a token without a user was accepted")
        for time in [claims.exp, claims.nbf, claims.iat, claims.grants?.publishExpiresAt].compactMap({ $0 }) {
            precondition(TokenVerifier.acceptedTimes.contains(time), "a time outside the accepted range was accepted")
        }
        precondition(claims.exp >= tokenNowSeconds - 5, "an expired token was accepted")
        let grants = claims.effectiveGrants
        let expiresAt = EngineTime(seconds: claims.exp)
        let publishExpiresAt = grants.publishExpiresAt.map { EngineTime(seconds: min($0, claims.exp)) }
        precondition(expiresAt.seconds == claims.exp && (publishExpiresAt.map { $0 <= expiresAt } ?? true), "grant times do not convert")
        let scoped = tokenVerifier.verify(token, roomId: claims.room ?? "", userId: claims.sub, nowSeconds: tokenNowSeconds)
        guard case .success(let again) = scoped, again == claims else {
            if claims.room == nil { return }
            preconditionFailure("a token is not accepted for its own room and user")
        }
        // Minting the accepted claims again gives a token that verifies to the same claims (when it
        // stays within the length limit: the minter may escape what the input wrote plainly).
        let reminted = TokenMinter(key: SigningKey.development).mint(claims)
        guard reminted.utf8.count <= TokenVerifier.maximumTokenLength else { return }
        guard case .success(let decoded) = tokenVerifier.verify(reminted, nowSeconds: tokenNowSeconds), decoded == claims else {
            preconditionFailure("re-minted claims do not verify to themselves")
        }
    }
}
