/// The claims of a PKRelay token (a JWT signed with HS256).
public struct TokenClaims: Sendable, Hashable, Codable {
    /// The user id (`sub`).
    public var sub: String
    /// The room id; absent only in admin tokens.
    public var room: String?
    /// Expiry, Unix seconds.
    public var exp: Int64
    /// Not before, Unix seconds.
    public var nbf: Int64?
    /// Issued at, Unix seconds.
    public var iat: Int64?
    public var grants: TokenGrantSet?

    public init(sub: String, room: String?, exp: Int64, nbf: Int64? = nil, iat: Int64? = nil, grants: TokenGrantSet? = nil) {
        self.sub = sub
        self.room = room
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.grants = grants
    }

    /// The grants with defaults filled in.
    public var effectiveGrants: TokenGrantSet { grants ?? TokenGrantSet() }
}
