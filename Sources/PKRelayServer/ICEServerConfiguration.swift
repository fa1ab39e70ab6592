/// One entry of `ice.servers`: a STUN or TURN server the relay names to its WebRTC clients
/// (in `createTransport`'s result and in WHIP and WHEP answers' `Link` headers), so a room
/// server does not have to hand out TURN settings of its own.
public struct ICEServerConfiguration: Sendable, Hashable {
    /// `stun:`, `stuns:`, `turn:` or `turns:` URLs of one server.
    public var urls: [String]
    /// Fixed TURN credentials, given to every client.
    public var username: String?
    public var credential: String?
    /// coturn's `static-auth-secret` (with `use-auth-secret`): the relay mints each client
    /// time-limited credentials from it (``TURNRESTCredentials``) instead of handing out one
    /// fixed password.
    public var secret: String?

    public init(urls: [String], username: String? = nil, credential: String? = nil, secret: String? = nil) {
        self.urls = urls
        self.username = username
        self.credential = credential
        self.secret = secret
    }

    /// Whether any URL is a TURN one (which needs credentials; STUN takes none).
    var isTURN: Bool { urls.contains { $0.hasPrefix("turn:") || $0.hasPrefix("turns:") } }

    /// The server as `pkrelay config check` prints it: URLs and user name, secrets redacted.
    var settingsDescription: String {
        var fields = ["urls: [\(urls.joined(separator: ", "))]"]
        if let username { fields.append("username: \(username)") }
        if credential != nil { fields.append("credential: (redacted)") }
        if secret != nil { fields.append("secret: (redacted)") }
        return "{\(fields.joined(separator: ", "))}"
    }
}
