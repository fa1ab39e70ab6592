import Foundation
public import Protocol
import SecureTransport

/// Time-limited TURN credentials as coturn's `use-auth-secret` checks them (the "TURN REST
/// API" draft, draft-uberti-behave-turn-rest-00): the user name is the expiry in Unix seconds,
/// a colon and an opaque id; the password is the base64 of HMAC-SHA-1 of that user name under
/// the secret the TURN server and the relay share. The TURN server needs no list of users, and
/// a credential that leaks stops working at its expiry.
public enum TURNRESTCredentials {
    /// Credentials for `id` (the user, or the transport where no user is known yet) valid until
    /// `nowSeconds + validSeconds`.
    public static func mint(secret: String, id: String, nowSeconds: Int64, validSeconds: Int) -> (username: String, credential: String) {
        let username = "\(nowSeconds + Int64(validSeconds)):\(id)"
        let code = HMACSHA1.authenticationCode(key: Array(secret.utf8), message: Array(username.utf8))
        return (username, Data(code).base64EncodedString())
    }

    /// The servers of `configuration` as a client gets them: fixed credentials as configured,
    /// minted ones where a server has a secret.
    public static func servers(_ configuration: [ICEServerConfiguration], id: String, nowSeconds: Int64, validSeconds: Int) -> [ICEServer] {
        configuration.map { server in
            if let secret = server.secret {
                let minted = mint(secret: secret, id: id, nowSeconds: nowSeconds, validSeconds: validSeconds)
                return ICEServer(urls: server.urls, username: minted.username, credential: minted.credential)
            }
            return ICEServer(urls: server.urls, username: server.username, credential: server.credential)
        }
    }
}
