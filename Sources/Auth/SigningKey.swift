/// An HS256 key: its id (the JWT `kid` header) and its secret.
public struct SigningKey: Sendable, Hashable {
    public var id: String
    public var secret: [UInt8]

    public init(id: String, secret: [UInt8]) {
        self.id = id
        self.secret = secret
    }

    /// The well-known development key, used when the configuration names no key. Anyone can mint
    /// tokens with it: the relay warns loudly at start while it is in use.
    public static let development = SigningKey(id: "dev", secret: Array("pkrelay-development-key-not-secret-do-not-deploy".utf8))

    /// The shortest secret accepted for HS256 (RFC 7518 section 3.2: at least the hash size).
    public static let minimumSecretLength = 32
}
