/// The `code` of an admin error answer: one per HTTP status the admin API uses.
public enum AdminErrorCode: String, Sendable, Codable, Hashable, CaseIterable {
    /// 400: a malformed id or body.
    case badRequest = "bad_request"
    /// 401: no bearer token, or one that is invalid or expired.
    case unauthorized
    /// 403: the token has no admin grant.
    case forbidden
    /// 404: no such room, or no such user in the room.
    case notFound = "not_found"
    /// 405: the path does not answer this method (the `Allow` header names the one it does).
    case methodNotAllowed = "method_not_allowed"
    /// 413: the body is larger than `admin.maxBodyBytes`.
    case payloadTooLarge = "payload_too_large"
    /// 429: too many admin calls.
    case rateLimited = "rate_limited"
    /// 503: the cluster cannot place a room now.
    case unavailable

    /// The HTTP status answered with this code.
    public var status: Int {
        switch self {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .payloadTooLarge: 413
        case .rateLimited: 429
        case .unavailable: 503
        }
    }
}
