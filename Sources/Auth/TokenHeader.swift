/// The JOSE header of a PKRelay token.
struct TokenHeader: Codable, Sendable {
    var alg: String
    var typ: String?
    var kid: String?
}
