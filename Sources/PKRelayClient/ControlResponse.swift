public import Protocol

/// A response from the relay as received, for callers that send raw text: the request id it
/// echoes (nil for answers to messages whose id could not be read), the error if any, and the
/// text itself.
public struct ControlResponse: Sendable, Hashable {
    /// The echoed request id; nil when the relay could not read one.
    public var id: RequestID?
    /// The error, for error responses.
    public var error: RelayError?
    /// Whether the response carries a `result`.
    public var hasResult: Bool
    /// The raw JSON text.
    public var text: String

    /// Creates a response record.
    public init(id: RequestID?, error: RelayError?, hasResult: Bool, text: String) {
        self.id = id
        self.error = error
        self.hasResult = hasResult
        self.text = text
    }
}
