/// The body of every error answer: `{"error": {"code", "message"}}`. OpenAPI schema `Error`.
public struct AdminError: Sendable, Codable, Hashable {
    public var error: AdminErrorDetail

    /// Creates the value from its fields.
    public init(error: AdminErrorDetail) {
        self.error = error
    }
}
