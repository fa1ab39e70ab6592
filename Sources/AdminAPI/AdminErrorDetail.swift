/// What went wrong. OpenAPI schema `ErrorDetail`.
public struct AdminErrorDetail: Sendable, Codable, Hashable {
    public var code: AdminErrorCode
    public var message: String

    /// Creates the value from its fields.
    public init(code: AdminErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}
