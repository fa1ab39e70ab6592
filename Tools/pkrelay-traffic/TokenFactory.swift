import Auth
import Foundation
import TrafficCore

/// Mints room tokens with the relay's key, as a room server would.
struct TokenFactory: Sendable {
    let minter: TokenMinter

    init(key: SigningKeyConfig) {
        minter = TokenMinter(key: SigningKey(id: key.id, secret: Array(key.secret.utf8)))
    }

    /// A two-hour token for `user` in `room` with the default grants (publish, subscribe, forward).
    func token(room: String, user: String) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return minter.mint(TokenClaims(sub: user, room: room, exp: now + 7200, nbf: now - 5, iat: now))
    }
}
