/// An error answered to a request: a code from ``ErrorCode`` and a human-readable message.
public struct RelayError: Error, Hashable, Sendable, Codable {
    /// The numeric code; stable across releases.
    public var code: ErrorCode
    /// A sentence for developers; wording may change between releases.
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
