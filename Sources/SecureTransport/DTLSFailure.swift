/// How a DTLS association failed: a stable reason, plus details for logs.
public struct DTLSFailure: Error, Sendable, Hashable {
    /// The stable reason.
    public let reason: DTLSFailureReason
    /// The description of the last fatal alert this side sent (RFC 5246 section 7.2),
    /// if any; 40 is handshake_failure, 42 bad_certificate.
    public let sentAlert: UInt8?
    /// The description of the last fatal alert the peer sent, if any.
    public let receivedAlert: UInt8?
    /// OpenSSL's explanation, when it has one; wording may change between versions.
    public let detail: String

    /// A failure record.
    public init(
        reason: DTLSFailureReason, sentAlert: UInt8? = nil, receivedAlert: UInt8? = nil, detail: String = ""
    ) {
        self.reason = reason
        self.sentAlert = sentAlert
        self.receivedAlert = receivedAlert
        self.detail = detail
    }
}
