/// An error answered to a request: a code from ``ErrorCode``, a human-readable message, and for
/// some codes machine-readable `data`.
public struct RelayError: Error, Hashable, Sendable, Codable {
    /// The numeric code; stable across releases.
    public var code: ErrorCode
    /// A sentence for developers; wording may change between releases.
    public var message: String
    /// Machine-readable details some codes carry (JSON-RPC's `data` member): the node to go to
    /// for ``ErrorCode/roomOnAnotherNode``. Absent otherwise.
    public var data: RelayErrorData?

    public init(_ code: ErrorCode, _ message: String, data: RelayErrorData? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}
